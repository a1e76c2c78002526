#!/usr/bin/env bash
# Builds the libFuzzer parser fuzzers (tests/libfuzzer) with clang in
# build-fuzz/ and runs each for the given number of seconds (default 60).
#   scripts/run_libfuzzer.sh [seconds] [extra libFuzzer flags...]
# New inputs go to build-fuzz/tests/libfuzzer/<fuzzer>_corpus (the seeds in
# tests/libfuzzer/corpus/<fuzzer> are read, never written); a crash leaves
# build-fuzz/tests/libfuzzer/<fuzzer>-crash-<sha1>, and the script fails.
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${LZ_FUZZ_BUILD_DIR:-$REPO_DIR/build-fuzz}
seconds=${1:-60}
shift || true
FUZZERS=(fuzz_parse_schema fuzz_parse_graph)

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$REPO_DIR" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" \
    -DLZ_LIBFUZZER=ON -DLZ_BUILD_BENCHMARKS=OFF -DLZ_BUILD_EXAMPLES=OFF
fi
# Only the fuzzers and the module objects they link.
nice -n 10 cmake --build "$BUILD_DIR" --target "${FUZZERS[@]}"

export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
out=$BUILD_DIR/tests/libfuzzer
rc=0
for f in "${FUZZERS[@]}"; do
  echo "=== $f for ${seconds}s"
  mkdir -p "$out/${f}_corpus"
  nice -n 10 "$out/$f" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$out/$f-" "$@" "$out/${f}_corpus" "$REPO_DIR/tests/libfuzzer/corpus/$f" || rc=1
done
exit $rc
