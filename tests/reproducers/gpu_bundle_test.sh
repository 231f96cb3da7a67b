#!/bin/sh
# Integration test: a GPU bundle packed from this build, moved elsewhere, runs the suite on its own.
#  - every shared library a bundled program loads resolves into the bundle, except the ones the GPU
#    machine must provide (glibc's, the NVIDIA driver's, NVRTC);
#  - the launcher starts faultline, which runs the bundled harnesses: every host-mode variant the
#    manifests define comes out reproduced (buggy) or pass (fixed), counted from the manifests here;
#  - build mode is skipped (no build tree to rebuild), gpu mode skipped without a GPU, never passed.
set -eu
faultline=$1
source_dir=$2
build_dir=$(cd "$(dirname "$faultline")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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
"$bundle/faultline" --db "$work/s.db" --json suite --mode auto --build-dir "$bundle" \
  --manifests "$source_dir/reproducers" > "$work/auto.json"
"$bundle/faultline" --db "$work/s.db" --json suite --mode gpu --build-dir "$bundle" \
  --manifests "$source_dir/reproducers" > "$work/gpu.json" || true

python3 - "$work" "$source_dir/reproducers" "$bundle" <<'PY'
import glob, json, os, subprocess, sys
work, manifest_dir, bundle = sys.argv[1:]
results = json.load(open(f"{work}/auto.json"))["results"]
gpu = json.load(open(f"{work}/gpu.json"))["results"]

# Host-mode variants, read from the manifests; a variant whose harness needs nvcc is skipped without it.
expected = {}
for path in glob.glob(f"{manifest_dir}/*.json"):
    m = json.load(open(path))
    for variant in m["modes"].get("host", {}):
        expected[(m["id"], variant)] = "reproduced" if variant == "buggy" else "pass"
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

has_gpu = subprocess.run(["sh", "-c", "command -v nvidia-smi >/dev/null && nvidia-smi -L | grep -q GPU"]).returncode == 0
if not has_gpu:
    assert gpu and all(r["outcome"] == "skipped" for r in gpu), gpu[:2]
print(f"bundle: {len(host)} host variants as expected, {len(build)} build runs skipped, {len(gpu)} gpu results")
PY
