#!/bin/sh
# Integration test: a GPU bundle packed from this build, moved elsewhere, runs the suite on its own.
#  - every shared library a bundled program loads resolves into the bundle, except the ones the GPU
#    machine must provide (glibc's, the NVIDIA driver's, NVRTC);
#  - the launcher starts faultline, which runs the bundled harnesses: every host-mode variant the
#    manifests define comes out reproduced (buggy) or pass (fixed), counted from the manifests here;
#  - build mode is skipped (no build tree to rebuild).
# With `gpu` as the third argument it is skipped (77) where `faultline doctor` finds no GPU; otherwise the
# moved bundle's gpu mode must exit 0 with every GPU result as its manifest expects (skips allowed only
# where doctor says the device cannot run that case).
set -eu
faultline=$1
source_dir=$2
part=${3:-host}
build_dir=$(cd "$(dirname "$faultline")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$faultline" --json doctor > "$work/doctor.json"
if [ "$part" = gpu ] && ! python3 -c 'import json,sys; sys.exit(not json.load(open(sys.argv[1]))["gpu_found"])' "$work/doctor.json"; then
  echo "faultline doctor finds no GPU here: skipped"
  exit 77
fi

"$source_dir/reproducers/pack_gpu_bundle.sh" "$build_dir" "$work/packed" >/dev/null
mv "$work/packed" "$work/moved"  # nothing may point back at where it was packed
bundle=$work/moved

provided='^(linux-vdso|/lib64/ld-linux|ld-linux|libc\.so|libm\.so|libmvec|libpthread|libdl\.so|librt\.so|libresolv|libutil|libcuda\.so|libnvidia-|libnvrtc)'
for exe in "$bundle"/bin/faultline "$bundle"/kernels/*/repro_*; do
  LD_LIBRARY_PATH="$bundle/lib:$bundle/lib/fallback" ldd "$exe" | while read -r name arrow path _; do
    echo "$name" | grep -Eq "$provided" && continue
    case "$path" in
      "$bundle"/lib/*) ;;
      *) echo "FAIL: $exe loads $name from '$arrow $path', not from the bundle" >&2; exit 1 ;;
    esac
  done
done

cd "$work"  # the store and anything relative land here, away from the source tree
if [ "$part" = gpu ]; then
  "$bundle/faultline" --db "$work/s.db" --json suite --mode gpu --build-dir "$bundle" \
    --manifests "$source_dir/reproducers" > "$work/gpu.json"
  python3 - "$work" "$source_dir/reproducers" <<'PY'
import glob, json, sys
work, manifest_dir = sys.argv[1:]
doctor = json.load(open(f"{work}/doctor.json"))
gpu = json.load(open(f"{work}/gpu.json"))
manifests = {m["id"]: m for m in (json.load(open(p)) for p in glob.glob(f"{manifest_dir}/*.json"))}
ran = 0
for r in gpu["results"]:
    if r["outcome"] == "skipped":
        assert not doctor["reproducers"][r["id"]]["gpu_runs_here"], r
        continue
    x = manifests[r["id"]]["modes"]["gpu"][r["variant"]]
    want = "modeled" if "modeled" in x else "reproduced" if r["variant"] == "buggy" else "pass"
    assert r["outcome"] == want, (want, r)
    ran += 1
assert ran > 0 and gpu["healthy"], gpu["problems"]
print(f"bundle on the GPU: {ran} of {len(gpu['results'])} GPU results ran, each as its manifest expects")
PY
  exit 0
fi
"$bundle/faultline" --db "$work/s.db" --json suite --mode auto --build-dir "$bundle" \
  --manifests "$source_dir/reproducers" > "$work/auto.json"

python3 - "$work" "$source_dir/reproducers" "$bundle" <<'PY'
import glob, json, os, sys
work, manifest_dir, bundle = sys.argv[1:]
results = json.load(open(f"{work}/auto.json"))["results"]

# Host-mode variants and their outcomes, read from the manifests; a variant whose harness needs nvcc is
# skipped without it.
expected = {}
for path in glob.glob(f"{manifest_dir}/*.json"):
    m = json.load(open(path))
    for variant, x in m["modes"].get("host", {}).items():
        expected[(m["id"], variant)] = "modeled" if "modeled" in x else "reproduced" if variant == "buggy" else "pass"
host = {(r["id"], r["variant"]): r for r in results if r["mode"] == "host"}
assert set(host) == set(expected), set(host) ^ set(expected)
for key, outcome in expected.items():
    r = host[key]
    harness = f"{bundle}/kernels/{key[0]}/repro_{key[0]}_{key[1]}_host"
    if not os.path.exists(harness) and r["outcome"] == "skipped":
        continue  # built without the CUDA Toolkit: skipped, never passed
    assert r["outcome"] == outcome, r

build = [r for r in results if r["mode"] == "build"]
assert build and all(r["outcome"] == "skipped" and "no CMake build tree" in r["detail"] for r in build), build[:2]
print(f"bundle: {len(host)} host variants as expected, {len(build)} build runs skipped")
PY
