#!/usr/bin/env bash
# The device kit's check (docs/cuda.md, "Checking on a GPU machine"), run
# from an unpacked bundle (scripts/device_bundle.sh) on any x86-64 Linux:
#
#   tar xf lazuli-device.tar.xz -C /tmp && /tmp/lazuli-device/bin/device_check.sh RESULTS_DIR
#
# In order, each step with its own time limit (the whole check stays under
# 6 minutes on an H100; the operator table takes most of it):
#   libraries   every bundled binary resolves its libraries from the bundle
#               (or the C runtime, or NVIDIA's)
#   info        nvidia-smi, the driver, the devices, NVRTC, cuBLAS
#   tests       test_cuda_real: the real-device tests
#   op table    the operator test table on cuda:0, entries in parallel
#   bench       lz-bench --device cuda --json RESULTS_DIR/bench_cuda.json
#   bench bf16  lz-bench --device cuda --dtype bf16 --json RESULTS_DIR/bench_cuda_bf16.json
# Without a GPU it runs lz-bench --quick on the CPU instead (proving the
# bundle's libraries resolve), says why CUDA was skipped and exits 0.
# LZ_DEVICE_CHECK_EMULATED=1 (with LZ_CUDA_DRIVER and LZ_CUBLAS_LIBRARY
# naming the test suite's emulated driver and cuBLAS) is a dry run of the
# GPU steps on the CPU: 3 operator-table entries, lz-bench --quick on W2.
# Logs and JSON go to RESULTS_DIR; the last line of output (and
# RESULTS_DIR/summary.txt) is a one-line summary. Exit status 0 when every
# step passed.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
results=${1:?usage: device_check.sh RESULTS_DIR}
mkdir -p "$results"
results=$(cd "$results" && pwd)
export LZ_CACHE_DIR=${LZ_CACHE_DIR:-$results/kernel-cache}
start=$(date +%s)
summary=()
failed=0
dry_run=${LZ_DEVICE_CHECK_EMULATED:-0}
test_args=() bench_args=() entry_limit=100000
if [ "$dry_run" = 1 ]; then
  test_args=(--lz-allow-emulated) bench_args=(--quick --workloads W2) entry_limit=3
fi

# Runs a step under a time limit: step NAME SECONDS COMMAND...; its output
# goes to RESULTS_DIR/NAME.log. Returns the command's status (124: timed out).
step() {
  local name=$1 limit=$2 t0 rc
  shift 2
  t0=$(date +%s)
  echo "device_check: $name (at most ${limit} s)"
  timeout -k 10 "$limit" "$@" >"$results/$name.log" 2>&1
  rc=$?
  echo "device_check: $name: exit $rc in $(($(date +%s) - t0)) s"
  return $rc
}
note() { summary+=("$1"); }
fail() { summary+=("$1"); failed=1; }

# ---- Libraries ------------------------------------------------------------------------
unresolved=$(for bin in "$here"/libexec/*; do
  LD_LIBRARY_PATH="$here/lib" ldd "$bin" | awk -v lib="$here/lib/" '
    /not found/ {print; next}
    $2 == "=>" && $3 ~ /^\// && index($3, lib) != 1 && $1 !~ /^(libc|libm|libdl|libpthread|librt|libutil|libresolv|libcuda|libnvrtc|libcublas|libnvidia)[.-]/ {print}'
done)
if [ -n "$unresolved" ]; then
  echo "$unresolved" >"$results/libraries.log"
  fail "libraries: resolved outside the bundle (libraries.log)"
else
  note "libraries: from the bundle"
fi

# ---- What this machine has ------------------------------------------------------------
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi >"$results/nvidia-smi.txt" 2>&1 || true
fi
"$here/bin/test_cuda_real" --lz-info >"$results/info.txt" 2>&1
cat "$results/info.txt"
# One short real-device test: exit 77 (skipped) says there is no GPU, and why.
probe=$("$here/bin/test_cuda_real" "${test_args[@]}" "cuda device: kernels are compiled once and then found" 2>&1)
probe_rc=$?

if [ $probe_rc -eq 77 ]; then
  # ---- No GPU: prove the bundle runs, say why CUDA was skipped ---------------------------
  why=$(grep -m1 "^skipped:" <<<"$probe" | sed 's/^skipped: //')
  if step cpu_quick 120 "$here/bin/lz-bench" --quick; then
    note "cpu lz-bench --quick: ok"
  else
    fail "cpu lz-bench --quick: failed (cpu_quick.log)"
  fi
  note "CUDA skipped: ${why:-no usable device}"
else
  gpu=$(grep -m1 "^cuda:0:" "$results/info.txt" | sed 's/^cuda:0: //; s/,.*//')
  note "${gpu:-cuda:0}"

  # ---- The real-device tests --------------------------------------------------------------
  if step tests 90 "$here/bin/test_cuda_real" "${test_args[@]}" -r junit -o "$results/test_cuda_real.xml"; then
    note "tests: passed"
  else
    fail "tests: failed (tests.log, test_cuda_real.xml)"
  fi

  # ---- The operator table on cuda:0, entries in parallel ----------------------------------
  "$here/bin/test_cuda_real" --list-test-names-only "[cuda_op_table]" | grep "^cuda device op table: " \
    | head -n "$entry_limit" >"$results/op_table_entries.txt"
  entries=$(wc -l <"$results/op_table_entries.txt")
  mkdir -p "$results/op_table"
  run_entry() {
    local entry=$1
    local log="$2/op_table/${entry#cuda device op table: }.log"
    if "$3/bin/test_cuda_real" $4 "$entry" >"$log" 2>&1; then echo pass; else echo "FAIL $entry"; fi
  }
  export -f run_entry
  jobs=$(nproc)
  [ "$jobs" -gt 16 ] && jobs=16
  step op_table 240 xargs -a "$results/op_table_entries.txt" -d '\n' -P "$jobs" -I{} \
    bash -c 'run_entry "$1" "$2" "$3" "$4"' _ {} "$results" "$here" "${test_args[*]}"
  passed=$(grep -c "^pass$" "$results/op_table.log" || true)
  if [ "$passed" -eq "$entries" ] && [ "$entries" -gt 0 ]; then
    note "op table: $passed/$entries entries"
  else
    fail "op table: $passed/$entries entries (op_table.log, op_table/)"
  fi

  # ---- The benchmark runner on the device ----------------------------------------------------
  if step bench 90 "$here/bin/lz-bench" "${bench_args[@]}" --device cuda --json "$results/bench_cuda.json"; then
    note "lz-bench cuda: ok"
  else
    fail "lz-bench cuda: failed (bench.log)"
  fi
  if step bench_bf16 75 "$here/bin/lz-bench" "${bench_args[@]}" --device cuda --dtype bf16 --json "$results/bench_cuda_bf16.json"; then
    note "lz-bench cuda bf16: ok"
  else
    fail "lz-bench cuda bf16: failed (bench_bf16.log)"
  fi
fi

line="device_check: $(IFS=';'; echo "${summary[*]}" | sed 's/;/; /g'); $(($(date +%s) - start)) s"
[ $failed -eq 0 ] && line="$line; PASS" || line="$line; FAIL"
echo "$line" | tee "$results/summary.txt"
exit $failed
