#!/usr/bin/env python3
"""What can be checked of the GPU harnesses without a GPU.

Every GPU harness must carry code a Hopper GPU (the H200, compute capability 9.0) can load, read from the
executables themselves, without cuobjdump:
  - each repro_*_gpu holds sm_90 machine code (an ELF entry for arch 90) in its fat binary;
  - missing-capability-check's fast path (the fat binary with code for 10.0) holds nothing a 9.0 device
    can load: no sm_90 machine code and no PTX for 9.0 or below, which the driver would JIT-compile. Either
    would let the launch succeed on the H200 and hide the missing check the buggy variant must show.
And on a machine without a GPU each harness must start (every library it links is there) and report a
skip: exit 77 with a {"skipped": true, ...} line, so a missing GPU can never read as a pass.
Skipped (77) when no GPU harness was built (no nvcc).

With the argument `gpu` it checks the other side instead, and is skipped (77) where `faultline doctor`
finds no GPU: each GPU harness that doctor says runs here must exit 10 (symptom) or 0 (correct) as its
manifest expects; a skip, a timeout or any other exit fails the test.

Whether there is a GPU is asked of `faultline --json doctor` only, the same probe the suite uses, so the
test and the suite cannot disagree about it.

Fat binary layout, as nvcc writes it into the .nv_fatbin section: a 16-byte header (magic 0xBA55ED50,
u16 version, u16 header size, u64 size of the entries), then entries, each with a header that starts
u16 kind (1 PTX, 2 ELF), u16, u32 header size, u64 payload size, and holds u32 arch at offset 28.
"""
import glob
import json
import os
import struct
import subprocess
import sys

FATBIN_MAGIC = 0xBA55ED50


def nv_fatbin_section(path):
    out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if " .nv_fatbin " in line:
            fields = line.split("]", 1)[1].split()
            offset, size = int(fields[3], 16), int(fields[4], 16)
            with open(path, "rb") as f:
                f.seek(offset)
                return f.read(size)
    return b""


def fat_binaries(path):
    """Each fat binary in the executable as a list of (kind, arch) entries."""
    section = nv_fatbin_section(path)
    binaries, pos = [], 0
    while pos + 16 <= len(section):
        magic, _, header_size, entries_size = struct.unpack_from("<IHHQ", section, pos)
        if magic != FATBIN_MAGIC:
            pos += 8  # fat binaries are 8-byte aligned
            continue
        entry, end, entries = pos + header_size, pos + header_size + entries_size, []
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", section, entry)
            (arch,) = struct.unpack_from("<I", section, entry + 28)
            entries.append(({1: "ptx", 2: "elf"}.get(kind, str(kind)), arch))
            entry += entry_header + payload
        binaries.append(entries)
        pos = end
    return binaries


def loadable_on_sm90(kind, arch):
    # Machine code runs on its own major version at an equal or higher minor; PTX on anything newer.
    return arch == 90 if kind == "elf" else arch <= 90


def doctor(faultline, build):
    out = subprocess.run([faultline, "--json", "doctor", "--build-dir", build], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    return json.loads(out)


def check_on_gpu(harnesses, report):
    manifest_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "reproducers")
    checked = 0
    for path in harnesses:
        name = os.path.basename(path)  # repro_<id>_<variant>_gpu
        repro, variant = name[len("repro_"):-len("_gpu")].rsplit("_", 1)
        if not report["reproducers"][repro]["gpu_runs_here"]:
            print(f"{name}: gpu skipped ({report['reproducers'][repro]['gpu_skip_reason']})")
            continue
        manifest = json.load(open(os.path.join(manifest_dir, repro + ".json")))
        expected = 10 if manifest["modes"]["gpu"][variant]["expect"] == "symptom" else 0
        run = subprocess.run([path], capture_output=True, text=True, timeout=manifest.get("timeout_s", 60) + 30)
        assert run.returncode == expected, f"{name}: exit {run.returncode}, expected {expected}: {run.stdout}{run.stderr}"
        checked += 1
    assert checked > 0, "a GPU is here, but no GPU harness ran on it"
    print(f"{checked} GPU harnesses showed their expected outcome on {report['gpu']['name']}")
    return 0


def main():
    faultline, build, part = sys.argv[1], sys.argv[2], sys.argv[3]
    harnesses = sorted(glob.glob(os.path.join(build, "kernels", "*", "repro_*_gpu")))
    if not harnesses:
        print("no GPU harness built (no nvcc): skipped")
        return 77
    report = doctor(faultline, build)
    if part == "gpu":
        if not report["gpu_found"]:
            print("faultline doctor finds no GPU here: skipped")
            return 77
        return check_on_gpu(harnesses, report)
    for path in harnesses:
        binaries = fat_binaries(path)
        name = os.path.basename(path)
        assert any(("elf", 90) in b for b in binaries), f"{name}: no sm_90 code in {binaries}"
        if "missing-capability-check" in name:
            fast = [b for b in binaries if any(arch >= 100 for _, arch in b)]
            assert fast, f"{name}: no fast path code for 10.0 in {binaries}"
            assert not any(loadable_on_sm90(*e) for b in fast for e in b), \
                f"{name}: a 9.0 device could load the fast path: {fast}"
    print(f"{len(harnesses)} GPU harnesses carry sm_90 code; the capability-check fast path needs 10.0")

    if not report["gpu_found"]:
        for path in harnesses:
            run = subprocess.run([path], capture_output=True, text=True, timeout=60)
            name = os.path.basename(path)
            assert run.returncode == 77, f"{name}: exit {run.returncode} without a GPU: {run.stdout}{run.stderr}"
            assert json.loads(run.stdout.strip().splitlines()[-1])["skipped"] is True, f"{name}: {run.stdout}"
        print(f"without a GPU, all {len(harnesses)} start and report a skip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
