#!/usr/bin/env bash
# Builds the whole project with sanitizers and runs the test suite under them.
#   scripts/run_sanitizers.sh asan [ctest args...]  ASan+UBSan, build-asan/, every test
#   scripts/run_sanitizers.sh asan-subset           ASan+UBSan, build-asan/, the test
#       binaries CI runs (.ci/run): everything but the op tables, CUDA, codegen
#       caches, tools and install tests, which take hours under ASan
#   scripts/run_sanitizers.sh tsan [ctest args...]  TSan, build-tsan/, the threading tests
#       (the binaries that hold them; CI runs this too)
# Extra arguments go to ctest (e.g. -R dispatcher). LZ_SAN_TARGETS restricts
# what is built (default: all for asan, the binaries with threading tests
# for tsan). Compiles at -O1 -g: fast enough to run the suite, readable
# stacks. Builds run under `nice` so other work keeps the CPU.
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SUPP_DIR=$REPO_DIR/cmake/sanitizers
kind=${1:-asan}
shift || true

# The CI subset: the binaries that exercise the runtime, tracing, passes,
# fusion, the LLVM code generator and the differential fuzzer.
ASAN_SUBSET=(test_core test_ir test_dispatcher test_passes test_kernel test_lazy test_lazy_cold_start test_fusion test_fuzz test_codegen_llvm)
if [ "$kind" = asan-subset ]; then
  kind=asan
  LZ_SAN_TARGETS=${LZ_SAN_TARGETS:-${ASAN_SUBSET[*]}}
  subset_regex="^($(IFS='|'; echo "${ASAN_SUBSET[*]}")):"
fi

case "$kind" in
  asan)
    sanitize="address,undefined"
    build_dir=${LZ_BUILD_DIR:-$REPO_DIR/build-asan}
    # allocator_may_return_null: a huge allocation fails as it does without
    # ASan (the allocator turns it into OutOfMemoryError) instead of aborting.
    export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:allocator_may_return_null=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
    [ -f "$SUPP_DIR/lsan.supp" ] && export LSAN_OPTIONS="suppressions=$SUPP_DIR/lsan.supp:print_suppressions=0"
    [ -f "$SUPP_DIR/ubsan.supp" ] && UBSAN_OPTIONS+=":suppressions=$SUPP_DIR/ubsan.supp"
    # install_find_package builds an uninstrumented consumer against the
    # instrumented library: ASan refuses to start when its runtime is not
    # loaded first. Not a finding; the Release suite covers it.
    default_args=(-E "install_find_package")
    if [ -n "${subset_regex:-}" ]; then default_args=(-R "$subset_regex"); fi
    ;;
  tsan)
    sanitize="thread"
    # The binaries holding tests the -R below selects: a threading test put
    # in another binary is only run here once that binary is listed.
    LZ_SAN_TARGETS=${LZ_SAN_TARGETS:-test_core test_dispatcher test_eager test_kernel test_codegen_llvm test_codegen_cuda test_lazy test_lazy_cold_start test_autograd}
    build_dir=${LZ_BUILD_DIR:-$REPO_DIR/build-tsan}
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
    [ -f "$SUPP_DIR/tsan.supp" ] && TSAN_OPTIONS+=":suppressions=$SUPP_DIR/tsan.supp"
    # Tests that start threads: by name (thread, parallel, mutex, concurrent).
    default_args=(-R "[Tt]hread|[Pp]arallel|[Mm]utex|[Cc]oncurren")
    ;;
  *) echo "usage: $0 asan|asan-subset|tsan [ctest args...]" >&2; exit 2 ;;
esac

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$REPO_DIR" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" \
    "-DLZ_SANITIZE=$sanitize" -DLZ_BUILD_BENCHMARKS=OFF
fi
start=$(date +%s)
# shellcheck disable=SC2086
nice -n 10 cmake --build "$build_dir" --target ${LZ_SAN_TARGETS:-all}
echo "run_sanitizers: $kind build took $(( $(date +%s) - start )) s"

# TSan needs a fixed address-space layout; kernels with more ASLR entropy
# (vm.mmap_rnd_bits > 28) make it abort with "unexpected memory mapping".
runner=()
if [ "$kind" = tsan ] && command -v setarch >/dev/null; then runner=(setarch "$(uname -m)" -R); fi

args=("$@")
((${#args[@]})) || args=("${default_args[@]}")
start=$(date +%s)
rc=0
nice -n 10 "${runner[@]}" ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "${args[@]}" || rc=$?
echo "run_sanitizers: $kind tests took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
