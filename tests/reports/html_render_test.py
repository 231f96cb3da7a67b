#!/usr/bin/env python3
"""Renders the HTML report of the bundled dataset in headless Chromium: no console errors, a screenshot
whose chart areas are really painted, and the expected number of marks in the rendered DOM."""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

faultline, source_dir = sys.argv[1], sys.argv[2]
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    print("SKIP: chromium is not installed")
    sys.exit(77)

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA, non-interlaced PNG (what Chromium writes) into rows of pixel tuples."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + left) & 255
            elif filter_type == 2:
                line[i] = (line[i] + up) & 255
            elif filter_type == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif filter_type == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return rows


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "r.db")
    snapshot = os.path.join(source_dir, "datasets", "snapshot")
    run = lambda *args: subprocess.run([faultline, "--db", db, *args], check=True, capture_output=True, text=True)
    run("import", "--snapshot", os.path.join(snapshot, "issues.jsonl"))
    run("screen")
    run("sample", "--census", "--name", "bundled")
    run("label", "import", "--rater", "rater_a", os.path.join(snapshot, "labels_rater_a.csv"))
    run("label", "import", "--rater", "rater_b", os.path.join(snapshot, "labels_rater_b.csv"))
    run("audit")
    run("adjudicate", os.path.join(snapshot, "labels_adjudicated.csv"))
    run("report", "--out", os.path.join(tmp, "report"), "--format", "html")
    page = "file://" + os.path.join(tmp, "report", "index.html")
    profile = os.path.join(tmp, "profile")

    dom = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
                          "--dump-dom", page], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    console = [l for l in dom.stderr.splitlines() if "CONSOLE" in l or "Uncaught" in l]
    assert not console, console
    html = dom.stdout
    assert len(re.findall(r'class="cell"', html)) == 90, "heat map needs 15 x 6 cells"
    assert len(re.findall(r'class="share-bar"', html)) == 42
    assert len(re.findall(r'class="funnel-bar"', html)) == 4  # raw, candidate, sampled, final
    bars = len(re.findall(r'class="bar"', html))
    assert 30 <= bars <= 42, bars  # 7 repositories x 6 symptoms, minus empty pairs

    shot = os.path.join(tmp, "shot.png")
    subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--window-size=1200,2400",
                    f"--screenshot={shot}", page], capture_output=True, timeout=120, check=True)
    pixels = png_pixels(shot)
    # The stacked-bar palette (Okabe-Ito) and the heat map's blues must be on screen.
    palette = {(0xE6, 0x9F, 0x00), (0x56, 0xB4, 0xE9), (0xD5, 0x5E, 0x00), (0x00, 0x72, 0xB2), (0x00, 0x9E, 0x73)}
    seen = {}
    for row in pixels:
        for p in row:
            if p in palette:
                seen[p] = seen.get(p, 0) + 1
    assert len(seen) >= 4 and sum(seen.values()) > 5000, seen
    print(f"rendered: {bars} bars, 90 cells, {sum(seen.values())} painted chart pixels")
