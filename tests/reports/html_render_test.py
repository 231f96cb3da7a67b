#!/usr/bin/env python3
"""Renders the HTML report of the bundled dataset in headless Chromium: no console errors, a screenshot
whose chart areas are really painted, the expected number of marks in the rendered DOM, and at 1280 px wide
a layout a person can read: nothing wider than the window (long tables scroll inside their box), bar charts
with axis ticks, the comparison chart's symptoms and root causes apart, heat-map headings whole, a colour
legend, and every count on a heat-map cell readable against its colour (contrast at least 4.5:1)."""
import json
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


def luminance(hex_colour):
    """WCAG relative luminance of #rrggbb."""
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# Measures the laid-out page from inside it: run on a copy of the report with this script added (the report
# itself carries no script), and written into the DOM that --dump-dom prints.
PROBE = """<script>
window.addEventListener('load', () => {
  const width = document.documentElement.clientWidth;
  const inBox = e => e.closest('.table-box') && !e.classList.contains('table-box');
  const wide = [...document.body.querySelectorAll('*')]
    .filter(e => !inBox(e) && e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().right));
  const box = id => { const e = document.getElementById(id), b = e && e.closest('.table-box');
    return b ? {client_height: b.clientHeight, scroll_height: b.scrollHeight, client_width: b.clientWidth,
                scroll_width: b.scrollWidth} : null; };
  const svg = document.querySelector('#chart-heatmap svg').getBoundingClientRect();
  const cut = [...document.querySelectorAll('#chart-heatmap text')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.left < svg.left - 0.5 || r.right > svg.right + 0.5 || r.top < svg.top - 0.5 || r.bottom > svg.bottom + 0.5;
  }).map(t => t.textContent);
  const pre = document.createElement('pre');
  pre.id = 'layout-probe';
  pre.textContent = JSON.stringify({width, page_width: document.documentElement.scrollWidth, wide,
    cases: box('cases'), table2: box('table2_symptoms'), cut});
  document.body.appendChild(pre);
});
</script>"""


def probe_layout(chromium, page, profile):
    probe_page = os.path.join(os.path.dirname(page), "probe_" + os.path.basename(page))
    open(probe_page, "w").write(open(page).read().replace("</body>", PROBE + "</body>"))
    dom = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--window-size=1280,1000",
                          "--virtual-time-budget=5000", "--dump-dom", "file://" + probe_page],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'<pre id="layout-probe">(.*?)</pre>', dom.stdout, re.S)
    assert found, "the layout probe did not run"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                      .replace("&amp;", "&"))


def oracle_self_checks(chromium, tmp, profile):
    """The checks can fail: black on the darkest blue is unreadable, and a wide table outside a box is found."""
    assert contrast("#000000", "#3737ff") < 4.5 and contrast("#ffffff", "#3737ff") >= 4.5
    page = os.path.join(tmp, "wide.html")
    open(page, "w").write('<!DOCTYPE html><html><body><table id="cases"><tr><td><div style="width:3000px">x</div></td></tr>'
                          '</table><figure id="chart-heatmap"><svg width="10" height="10"><text x="0" y="5">cut'
                          '</text></svg></figure></body></html>')
    layout = probe_layout(chromium, page, profile)
    assert layout["wide"] and layout["page_width"] > layout["width"] and layout["cut"], layout
    assert layout["cases"] is None, layout  # a table outside a box does not count as scrolling in one


def check_layout(chromium, html, index, profile):
    # Marks a person needs to read the charts, in the rendered DOM.
    def figure(fig_id):
        return re.search(rf'<figure id="{fig_id}">(.*?)</figure>', html, re.S).group(1)
    for fig_id in ("chart-symptoms", "chart-shares"):
        ticks = len(re.findall(r'class="axis-tick"', figure(fig_id)))
        assert ticks >= 3, f"{fig_id}: {ticks} axis ticks"
    shares = figure("chart-shares")
    assert len(re.findall(r'class="group-separator"', shares)) == 2, "symptoms and root causes are not set apart"
    headings = re.findall(r'class="group-heading"[^>]*>([^<]*)<', shares)
    assert headings == ["Symptoms", "Root causes"], headings
    heat = figure("chart-heatmap")
    assert len(re.findall(r'class="legend-swatch"', heat)) >= 5, "the heat map has no colour legend"
    # Headings whole: the symptom names of the taxonomy file, read from the tspans of each heading.
    taxonomy = json.load(open(os.path.join(source_dir, "taxonomy", "taxonomy.json")))
    names = [s["name"] for s in taxonomy["symptoms"]]
    shown = [" ".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", h))
             for h in re.findall(r'<text class="heat-heading".*?</text>', heat, re.S)]
    assert shown == names, (shown, names)
    # Every count on a cell, against that cell's fill.
    pairs = re.findall(r'<rect class="cell"[^>]*fill="(#[0-9a-fA-F]{6})"><title>[^<]*</title></rect>'
                       r'<text[^>]*class="cell-count"[^>]*fill="(#[0-9a-fA-F]{6})"', heat)
    assert len(pairs) >= 20, len(pairs)
    worst = min(contrast(fill, ink) for fill, ink in pairs)
    assert worst >= 4.5, f"a heat-map count has contrast {worst:.2f}:1 against its cell"

    layout = probe_layout(chromium, index, profile)
    assert layout["page_width"] <= layout["width"] and not layout["wide"], layout
    assert not layout["cut"], f"heat-map text cut off: {layout['cut']}"
    cases = layout["cases"]
    assert cases and cases["scroll_height"] > cases["client_height"] and cases["client_height"] < 1000, \
        f"the Cases table does not scroll inside its box: {cases}"
    assert layout["table2"] and layout["table2"]["client_width"] <= layout["width"], layout["table2"]
    print(f"layout at {layout['width']} px: nothing wider; Cases box {cases['client_height']} of "
          f"{cases['scroll_height']} px; heat-map contrast at least {worst:.1f}:1")


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
    subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--window-size=1280,2400",
                    f"--screenshot={shot}", page], capture_output=True, timeout=120, check=True)
    oracle_self_checks(chromium, tmp, profile)
    check_layout(chromium, html, os.path.join(tmp, "report", "index.html"), profile)
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
