#!/bin/sh
# Integration test: the real suite on this machine. Expected outcomes are read from the manifests here,
# not from the runner, so a runner that grants an outcome is caught.
#   host: build and host modes: every buggy variant reproduced (or modeled where its manifest says the
#         run can only model the mechanism), every fixed one pass (or modeled), every plain compile
#         `built`, never pass; and, where `faultline doctor` finds no GPU, `suite --mode gpu` exits
#         non-zero, says why, and its JUnit marks every GPU test skipped.
#   gpu:  skipped (77) where doctor finds no GPU; otherwise gpu mode must exit 0 with every GPU result
#         as its manifest expects, skips allowed only where doctor says the device cannot run that case.
set -eu
faultline=$1
part=$2
manifests=$(cd "$(dirname "$0")/../../reproducers" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$faultline" --json doctor > "$work/doctor.json"
gpu_found=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["gpu_found"]))' "$work/doctor.json")

if [ "$part" = gpu ]; then
  if [ "$gpu_found" = 0 ]; then
    echo "faultline doctor finds no GPU here: skipped"
    exit 77
  fi
  "$faultline" --db "$work/s.db" --json suite --mode gpu --junit "$work/gpu.xml" > "$work/gpu.json"
else
  "$faultline" --db "$work/s.db" --json suite --mode build --junit "$work/build.xml" > "$work/build.json"
  "$faultline" --db "$work/s.db" --json suite --mode host > "$work/host.json"
  if [ "$gpu_found" = 0 ]; then
    if "$faultline" --db "$work/s.db" --json suite --mode gpu --junit "$work/gpu.xml" > "$work/gpu.json" 2> "$work/gpu.err"; then
      echo "FAIL: suite --mode gpu exited 0 without a GPU" >&2
      exit 1
    fi
    grep -q "gpu mode ran nothing" "$work/gpu.err" || { echo "FAIL: no reason given: $(cat "$work/gpu.err")" >&2; exit 1; }
  fi
fi

python3 - "$work" "$part" "$manifests" "$(dirname "$faultline")/.." <<'PY'
import glob, json, os, sys
work, part, manifest_dir, build_dir = sys.argv[1:]
doctor = json.load(open(f"{work}/doctor.json"))
manifests = {m["id"]: m for m in (json.load(open(p)) for p in glob.glob(f"{manifest_dir}/*.json"))}
has_nvcc = os.path.exists(os.path.join(build_dir, "kernels", "int16-bound-overflow", "repro_int16-bound-overflow_fixed_gpu"))

def expected(r):
    """The outcome a result must have, from its manifest alone."""
    m = manifests[r["id"]]
    x = m["modes"][r["mode"]][r["variant"]]
    if "modeled" in x:
        return "modeled"
    if r["mode"] == "build" and x["expect"] == "builds" and "artifact" not in x:
        return "built"
    return "reproduced" if r["variant"] == "buggy" else "pass"

def check(results, allow_skip):
    assert results, "no results"
    for r in results:
        if r["outcome"] == "skipped" and allow_skip(r):
            continue
        assert r["outcome"] == expected(r), (expected(r), r)
        assert not (r["variant"] == "buggy" and r["outcome"] == "pass"), r

if part == "gpu":
    gpu = json.load(open(f"{work}/gpu.json"))
    assert gpu["healthy"], gpu["problems"]
    runs_here = lambda r: doctor["reproducers"][r["id"]]["gpu_runs_here"]
    check(gpu["results"], lambda r: not runs_here(r))
    ran = [r for r in gpu["results"] if r["outcome"] != "skipped"]
    assert ran and all(r["compute_capability"] != "none" for r in ran), gpu["results"][:2]
    print(f"gpu: {len(ran)} of {len(gpu['results'])} GPU results ran, each as its manifest expects")
    sys.exit(0)

build = json.load(open(f"{work}/build.json"))
host = json.load(open(f"{work}/host.json"))
# Like every --json object, the suite's names the faultline that wrote it.
assert build.get("faultline_version") and host.get("faultline_version") == build["faultline_version"], host.keys()
# Without nvcc, what needs the CUDA Toolkit is skipped (never passed) and says so; with it, nothing may be.
needs_cuda = lambda r: not has_nvcc and manifests[r["id"]]["requirements"].get("cuda_toolkit", False)
check(build["results"], lambda r: needs_cuda(r) and "nvcc" in r["detail"])
check(host["results"], lambda r: needs_cuda(r) and "CUDA" in r["detail"])
# Every buggy build that must fail fails with its checked message.
fails = [(i, m) for i, m in manifests.items() if m["modes"].get("build", {}).get("buggy", {}).get("expect") == "fails"
         and (has_nvcc or not m["requirements"].get("cuda_toolkit", False))]
got = [r for r in build["results"] if r["variant"] == "buggy" and r["detail"].startswith("fails to build as expected")]
assert len(got) == len(fails), (got, fails)
host_ids = {r["id"] for r in host["results"]}
assert host_ids == {i for i, m in manifests.items() if "host" in m["modes"]}, host_ids
junit = open(f"{work}/build.xml").read()
assert 'name="faultline-reproducers"' in junit and "<failure" not in junit
if not doctor["gpu_found"]:
    gpu = json.load(open(f"{work}/gpu.json"))
    assert gpu["results"] and all(r["outcome"] == "skipped" for r in gpu["results"]), gpu["results"][:3]
    assert not gpu["healthy"]
    xml = open(f"{work}/gpu.xml").read()
    assert xml.count("<testcase") == len(gpu["results"]) == xml.count("<skipped"), xml[:400]
print(f"suite: {len(build['results'])} build, {len(host['results'])} host results as their manifests expect; "
      f"{build['summary']}; {host['summary']}")
PY
