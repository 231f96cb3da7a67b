#!/bin/sh
# Integration test: the real suite on this machine, in build and host modes, plus gpu mode, which must
# report skipped here when there is no GPU. Fails if any reproducer is not-reproduced or fails.
set -eu
faultline=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$faultline" --db "$work/s.db" --json suite --mode build --junit "$work/build.xml" > "$work/build.json"
"$faultline" --db "$work/s.db" --json suite --mode host > "$work/host.json"
"$faultline" --db "$work/s.db" --json suite --mode gpu > "$work/gpu.json" || true
python3 - "$work" "$(dirname "$faultline")/.." <<'PY'
import json, os, subprocess, sys
work = sys.argv[1]
# Without the CUDA Toolkit, reproducers that need it are skipped (never passed); with it, none may be.
has_nvcc = os.path.exists(os.path.join(sys.argv[2], "kernels", "int16-bound-overflow", "repro_int16-bound-overflow_fixed_gpu"))
build = json.load(open(f"{work}/build.json"))
host = json.load(open(f"{work}/host.json"))
gpu = json.load(open(f"{work}/gpu.json"))
bad = [r for r in build["results"] + host["results"] if r["outcome"] not in ("pass", "reproduced", "skipped")]
assert not bad, f"unhealthy reproducers: {bad}"
# Every buggy variant whose build must fail is reproduced in build mode (where nvcc is present).
fails = [r for r in build["results"] if r["variant"] == "buggy" and r["detail"].startswith("fails to build")]
assert len(fails) == (3 if has_nvcc else 1), f"expected the build-failure reproducers to reproduce, got {fails}"
# A "builds" expectation with a target builds it too: the fixed PTX goes through the real ptxas.
if has_nvcc:
    fixed_ptx = next(r for r in build["results"] if r["id"] == "ptx-version-mismatch" and r["variant"] == "fixed")
    assert fixed_ptx["outcome"] == "pass" and fixed_ptx["detail"] == "built 2 target(s)", fixed_ptx
# Every host-capable reproducer shows reproduced (buggy) and pass (fixed).
host_ids = {r["id"] for r in host["results"]}
assert len(host_ids) >= 15, host_ids
for r in host["results"]:
    expected = "reproduced" if r["variant"] == "buggy" else "pass"
    if not has_nvcc and r["outcome"] == "skipped":
        assert "CUDA" in r["detail"], r
        continue
    assert r["outcome"] == expected, r
has_gpu = subprocess.run(["sh", "-c", "command -v nvidia-smi >/dev/null && nvidia-smi -L | grep -q GPU"]).returncode == 0
if not has_gpu:
    assert gpu["results"] and all(r["outcome"] == "skipped" for r in gpu["results"]), gpu["results"][:3]
junit = open(f"{work}/build.xml").read()
assert 'name="faultline-reproducers"' in junit and "<failure" not in junit
print(f"suite: {len(build['results'])} build, {len(host['results'])} host, {len(gpu['results'])} gpu results checked")
PY
