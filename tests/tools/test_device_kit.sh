#!/usr/bin/env bash
# The device kit (scripts/device_bundle.sh, scripts/device_check.sh):
#   test_device_kit.sh libraries REPO BINARY   the libraries the bundle would
#       pack for BINARY include LLVM, OpenBLAS, libstdc++ and liblazuli, and
#       none of the C runtime or NVIDIA's
#   test_device_kit.sh check REPO BUILD_DIR    a fast bundle, unpacked, checked
#       in a clean environment on this GPU-less machine: passes, says why
#       CUDA was skipped, and its binaries resolve libraries from the bundle
set -euo pipefail
mode=$1 repo=$2
fail() { echo "test_device_kit: $*" >&2; exit 1; }

if [ "$mode" = libraries ]; then
  libs=$("$repo/scripts/device_bundle.sh" --list-libs "$3")
  echo "$libs"
  for wanted in libLLVM libopenblas libstdc++ libgcc_s liblazuli libabsl_strings; do
    grep -q "/$wanted" <<<"$libs" || fail "$wanted is not packed"
  done
  for provided in libc.so libm.so ld-linux libpthread libdl libcuda libnvrtc libcublas; do
    if grep -q "/$provided" <<<"$libs"; then fail "$provided is packed, but every machine has it"; fi
  done
  exit 0
fi

[ "$mode" = check ] || fail "unknown mode $mode"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
LZ_BUILD_DIR=$3 LZ_BUNDLE_COMPRESSION=gz "$repo/scripts/device_bundle.sh" "$work/out" >/dev/null
mkdir "$work/unpacked"
tar -xzf "$work/out/lazuli-device.tar.gz" -C "$work/unpacked"
kit="$work/unpacked/lazuli-device"
for bin in "$kit"/libexec/*; do
  outside=$(LD_LIBRARY_PATH="$kit/lib" ldd "$bin" | awk -v lib="$kit/lib/" \
    '$2 == "=>" && index($3, lib) != 1 && $1 !~ /^(libc|libm|libdl|libpthread|librt)[.]/ {print}')
  [ -z "$outside" ] || fail "$(basename "$bin") loads from outside the bundle: $outside"
done
status=0
env -i PATH=/usr/bin:/bin "$kit/bin/device_check.sh" "$work/results" >"$work/out.txt" 2>&1 || status=$?
cat "$work/out.txt"
[ $status -eq 0 ] || fail "device_check.sh exited $status"
summary=$(tail -1 "$work/out.txt")
grep -q "CUDA skipped: no CUDA device" <<<"$summary" || fail "the summary does not say why CUDA was skipped: $summary"
grep -q "cpu lz-bench --quick: ok" <<<"$summary" || fail "the CPU run did not pass: $summary"
grep -q "libraries: from the bundle" <<<"$summary" || fail "libraries: $summary"
[ "$(cat "$work/results/summary.txt")" = "$summary" ] || fail "summary.txt differs from the printed summary"
