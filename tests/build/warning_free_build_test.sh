#!/usr/bin/env bash
# Builds faultline's own code in another CMake build type with warnings as errors, so that a warning that
# only an optimisation level shows (GCC's -Wrestrict at -O3, say) fails CI instead of a user's build.
# usage: warning_free_build_test.sh SOURCE_DIR BUILD_TYPE
set -euo pipefail
source_dir=$1
type=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$source_dir" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DFAULTLINE_WERROR=ON \
  -DFAULTLINE_CUDA=OFF -DFAULTLINE_TESTS=OFF >/dev/null
# faultline links every library of the project; the harnesses are compiled with their own flags.
if ! cmake --build "$work" --target faultline -j2 >"$work/build.log" 2>&1; then
  grep -E "error|warning" "$work/build.log" | head -20 >&2
  echo "FAIL: the $type build of faultline is not warning-free" >&2
  exit 1
fi
echo "ok: the $type build of faultline has no warnings"
