#!/usr/bin/env bash
# Packs what a GPU machine without network or Debian packages needs to run the reproducer suite, built
# here: the faultline executable, every reproducer harness, and the shared libraries they load. Left out
# are the C library family, which every Linux machine has, and the NVIDIA driver and NVRTC, which must
# match the GPU machine and come with it.
#
# usage: pack_gpu_bundle.sh BUILD_DIR DEST
#   DEST/faultline (the launcher to call), DEST/bin/faultline, DEST/kernels/<id>/repro_*, DEST/lib/*.so*,
#   DEST/lib/fallback/ (libstdc++ and libgcc_s, used only where the machine's own are too old), and
#   DEST/CONTENTS (what went in, and the newest glibc symbol version anything in it needs). Run it as
#   DEST/faultline suite --build-dir DEST --manifests reproducers ...
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR DEST" >&2
  exit 2
fi
build=$1
dest=$2
if [ ! -x "$build/cli/faultline" ]; then
  echo "pack_gpu_bundle: $build/cli/faultline not found: build the project first" >&2
  exit 1
fi

rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib" "$dest/kernels"
install -m 755 "$build/cli/faultline" "$dest/bin/faultline"
for harness in "$build"/kernels/*/repro_*; do
  [ -f "$harness" ] && [ -x "$harness" ] || continue
  id=$(basename "$(dirname "$harness")")
  mkdir -p "$dest/kernels/$id"
  install -m 755 "$harness" "$dest/kernels/$id/"
done
# Shared objects a harness loads itself (dlopen), in the layout it expects.
(cd "$build/kernels" && find . -path '*/CMakeFiles' -prune -o -name 'lib*.so*' -print) |
  while read -r so; do
    mkdir -p "$dest/kernels/$(dirname "$so")"
    cp -P "$build/kernels/$so" "$dest/kernels/$so"
  done
# Host symbols and debug info only; the CUDA fat binaries live in sections strip keeps.
strip --strip-unneeded "$dest"/bin/faultline "$dest"/kernels/*/repro_*

# Libraries the GPU machine provides itself: glibc's, the driver's, and NVRTC (100+ MB, from its toolkit).
provided='^(linux-vdso|ld-linux|libc\.so|libm\.so|libmvec|libpthread|libdl\.so|librt\.so|libresolv|libutil|libcuda\.so|libnvidia-|libnvrtc)'
executables=("$dest"/bin/faultline "$dest"/kernels/*/repro_*)
for exe in "${executables[@]}"; do ldd "$exe" || true; done |
  awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
  while read -r name path; do
    [[ $name =~ $provided ]] && continue
    cp -L "$path" "$dest/lib/$name"
  done

# The machine's own C++ runtime is preferred: ours needs the glibc it was built against.
mkdir -p "$dest/lib/fallback"
for cxx in "$dest"/lib/libstdc++.so.* "$dest"/lib/libgcc_s.so.*; do
  [ -e "$cxx" ] && mv "$cxx" "$dest/lib/fallback/"
done

cat > "$dest/faultline" <<'LAUNCHER'
#!/bin/sh
# Runs the bundled faultline with the bundled libraries; the machine's C++ runtime when it suffices,
# the bundled one otherwise; and NVRTC from the machine's CUDA Toolkit when the loader does not know it.
here=$(cd "$(dirname "$0")" && pwd)
libs=$here/lib
if ! LD_LIBRARY_PATH=$libs "$here/bin/faultline" --help >/dev/null 2>&1; then
  libs=$libs:$here/lib/fallback
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so\.13 '; then
  nvrtc=$(find /usr/local /usr/lib /opt -name 'libnvrtc.so.13' 2>/dev/null | head -n 1)
  [ -n "$nvrtc" ] && libs=$libs:$(dirname "$nvrtc")
fi
LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec "$here/bin/faultline" "$@"
LAUNCHER
chmod 755 "$dest/faultline"

newest_glibc() {
  for f in "$@"; do objdump -T "$f" 2>/dev/null; done | grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -1 | cut -d_ -f2
}
glibc_own_runtime=$(newest_glibc "${executables[@]}" "$dest"/lib/*.so*)
glibc_with_fallback=$(newest_glibc "${executables[@]}" "$dest"/lib/*.so* "$dest"/lib/fallback/*)
harnesses=$(find "$dest/kernels" -type f -name 'repro_*' | wc -l)
{
  source_dir=$(cd "$(dirname "$0")/.." && pwd)
  commit=$(git -C "$source_dir" describe --always --dirty 2>/dev/null || echo "unknown (not a git checkout)")
  echo "faultline GPU bundle, packed $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m) from $build"
  echo "source: commit $commit"
  echo "needs glibc: $glibc_own_runtime or newer with the machine's C++ runtime; $glibc_with_fallback or newer when lib/fallback/ is used"
  echo "harnesses: $harnesses"
  echo "libraries: $(cd "$dest/lib" && ls -- *.so* | tr '\n' ' ')"
  echo "fallback: $(cd "$dest/lib/fallback" && ls | tr '\n' ' ')"
} > "$dest/CONTENTS"
echo "packed $(du -sh "$dest" | cut -f1) into $dest ($harnesses harnesses, $(find "$dest/lib" -type f | wc -l) libraries)"
