#!/usr/bin/env python3
"""No manifest with a gpu mode may promise to run on a GPU older than the harnesses are built for.

The GPU harnesses carry code only for FAULTLINE_CUDA_ARCHS (kernels/CMakeLists.txt): machine code for each
architecture and PTX, which the driver compiles only for the same or a newer GPU. On an older device no
kernel loads at all, and a harness whose symptom is a failed launch would read as reproduced for the wrong
reason. So each gpu-mode manifest's min_compute_capability must be at least the lowest of the built
architectures (90 -> 9.0). Arguments: the architecture list as CMake has it (e.g. "90;100a-real") and the
manifest directory.
"""
import glob
import json
import os
import re
import sys


def capability(arch):
    digits = re.match(r"(?:sm_|compute_)?(\d+)", arch)
    assert digits, f"cannot read a compute capability from the architecture '{arch}'"
    n = int(digits.group(1))
    return (n // 10, n % 10)


def main():
    archs, manifest_dir = [a for a in sys.argv[1].split(";") if a], sys.argv[2]
    assert archs, "FAULTLINE_CUDA_ARCHS is empty"
    lowest = min(capability(a) for a in archs)
    stale = []
    checked = 0
    for path in sorted(glob.glob(os.path.join(manifest_dir, "*.json"))):
        manifest = json.load(open(path, encoding="utf-8"))
        if "gpu" not in manifest["modes"]:
            continue
        checked += 1
        major, minor = (int(p) for p in manifest["requirements"]["min_compute_capability"].split("."))
        if (major, minor) < lowest:
            stale.append(f"{os.path.basename(path)}: min_compute_capability {major}.{minor}")
    assert checked > 0, f"no manifest with a gpu mode in {manifest_dir}"
    assert not stale, (f"the GPU harnesses are built for {';'.join(archs)} (lowest {lowest[0]}.{lowest[1]}), "
                       "but these manifests allow older devices:\n  " + "\n  ".join(stale))
    print(f"{checked} gpu-mode manifests need at least {lowest[0]}.{lowest[1]}, the lowest built architecture")
    return 0


if __name__ == "__main__":
    sys.exit(main())
