#!/usr/bin/env bash
# README's test command: builds everything and runs the whole CTest suite,
# printing how long each half took.
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${LZ_BUILD_DIR:-$REPO_DIR/build}
start=$(date +%s)
"$REPO_DIR/scripts/bootstrap.sh" all
built=$(date +%s)
echo "run_tests: set-up and build took $(( built - start )) s"
status=0
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" "$@" || status=$?
echo "run_tests: the tests took $(( $(date +%s) - built )) s"
exit "$status"
