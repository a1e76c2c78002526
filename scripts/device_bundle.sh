#!/usr/bin/env bash
# The device kit's bundle (docs/cuda.md, "Checking on a GPU machine"):
# builds what the GPU checks need (Release, here) and packs it with every
# shared library a stock CUDA machine lacks into one file, at most 60 MiB,
# so the checks arrive ready to run where Lazuli cannot be built.
#
#   scripts/device_bundle.sh OUTDIR          -> OUTDIR/lazuli-device.tar.xz
#   scripts/device_bundle.sh --list-libs BINARY...
#                                            the libraries it would pack for
#                                            these binaries, one per line
#
# Unpacked (tar xf lazuli-device.tar.xz -C /tmp), lazuli-device/ holds
#   bin/device_check.sh   the check (scripts/device_check.sh)
#   bin/<tool>            wrappers that run libexec/<tool> with lib/ first
#   libexec/              test_cuda_real, lz-bench (stripped)
#   lib/                  liblazuli and what it and the tools load: LLVM,
#                         OpenBLAS, abseil, libstdc++, ... (stripped)
# Not packed: the C runtime (every machine has it) and NVIDIA's libraries
# (the driver, NVRTC and cuBLAS are opened at run time from the machine's).
#
# LZ_BUILD_DIR picks the build (default build/); LZ_BUNDLE_COMPRESSION=xz
# (default, smallest), gz (fast, for tests) or none.
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${LZ_BUILD_DIR:-$REPO_DIR/build}
MAX_BYTES=$((60 * 1024 * 1024))

# Libraries a machine is expected to provide itself.
is_provided() {
  case "$(basename "$1")" in
    linux-vdso.so* | ld-linux*.so* | libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | \
      libutil.so* | libresolv.so* | libcuda.so* | libnvrtc* | libcublas* | libnvidia*) return 0 ;;
  esac
  return 1
}

# Libraries liblazuli opens at run time (dlopen) that a machine lacks:
# OpenBLAS (eager_kernels/cpu/openblas.h), as the loader finds it here.
opened_libs() {
  local openblas
  openblas=$(ldconfig -p | awk '$1 == "libopenblas.so.0" {print $NF; exit}')
  [ -n "$openblas" ] || { echo "device_bundle: libopenblas.so.0 is not installed" >&2; return 1; }
  echo "$openblas"
}

# The shared libraries the binaries load, as ldd resolves them here, and
# those liblazuli opens (with what they load), minus the provided ones. A
# library ldd cannot find is an error.
list_libs() {
  local out opened
  opened=$(opened_libs)
  out=$(for bin in "$@" $opened; do ldd "$bin"; done; for lib in $opened; do echo "x => $lib (0)"; done)
  if grep -q "not found" <<<"$out"; then
    echo "device_bundle: unresolved libraries:" >&2
    grep "not found" <<<"$out" | sort -u >&2
    return 1
  fi
  awk '$2 == "=>" && $3 ~ /^\// {print $3}' <<<"$out" | sort -u | while read -r lib; do
    is_provided "$lib" || echo "$lib"
  done
}

if [ "${1:-}" = "--list-libs" ]; then
  shift
  [ $# -gt 0 ] || { echo "usage: device_bundle.sh --list-libs BINARY..." >&2; exit 2; }
  list_libs "$@"
  exit 0
fi

OUTDIR=${1:?usage: device_bundle.sh OUTDIR | --list-libs BINARY...}
compression=${LZ_BUNDLE_COMPRESSION:-xz}

"$REPO_DIR/scripts/bootstrap.sh" test_cuda_real lz-bench
tools=("$BUILD_DIR/tests/cuda_device/test_cuda_real" "$BUILD_DIR/tools/lz_bench/lz-bench")

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/lazuli-device"
mkdir -p "$root/bin" "$root/libexec" "$root/lib"
for tool in "${tools[@]}"; do
  name=$(basename "$tool")
  cp "$tool" "$root/libexec/$name"
  # A wrapper: the bundle's libraries come first whatever the environment
  # (LD_LIBRARY_PATH reaches every library's dependencies, which a
  # RUNPATH of the tool would not).
  cat >"$root/bin/$name" <<EOF
#!/bin/sh
here=\$(cd "\$(dirname "\$0")/.." && pwd)
LD_LIBRARY_PATH="\$here/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$here/libexec/$name" "\$@"
EOF
  chmod +x "$root/bin/$name"
done
list_libs "${tools[@]}" | while read -r lib; do cp -L "$lib" "$root/lib/"; done
strip --strip-unneeded "$root"/libexec/* "$root"/lib/*
cp "$REPO_DIR/scripts/device_check.sh" "$root/bin/device_check.sh"
{
  echo "Lazuli device kit: run bin/device_check.sh RESULTS_DIR (docs/cuda.md)."
  echo "commit: $(git -C "$REPO_DIR" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm)"
  echo "libraries:"
  (cd "$root/lib" && ls)
} >"$root/MANIFEST"

mkdir -p "$OUTDIR"
case "$compression" in
  xz) file="$OUTDIR/lazuli-device.tar.xz"; tar -C "$stage" -cf - lazuli-device | xz -9e -T0 >"$file" ;;
  gz) file="$OUTDIR/lazuli-device.tar.gz"; tar -C "$stage" -cf - lazuli-device | gzip -1 >"$file" ;;
  none) file="$OUTDIR/lazuli-device.tar"; tar -C "$stage" -cf "$file" lazuli-device ;;
  *) echo "device_bundle: LZ_BUNDLE_COMPRESSION must be xz, gz or none, not '$compression'" >&2; exit 2 ;;
esac
bytes=$(stat -c %s "$file")
echo "device_bundle: $file: $((bytes / 1024 / 1024)) MiB ($(ls "$root/lib" | wc -l) libraries, $(du -sm "$root" | cut -f1) MiB unpacked)"
if [ "$compression" = xz ] && [ "$bytes" -gt "$MAX_BYTES" ]; then
  echo "device_bundle: larger than 60 MiB: it would not reach a GPU machine" >&2
  exit 1
fi
