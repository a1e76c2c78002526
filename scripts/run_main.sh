#!/usr/bin/env bash
# README's main job: builds and runs the fusion benchmark runner, lz-bench,
# on its default workloads (extra arguments go to lz-bench: --quick,
# --workloads W1,W4, --json FILE, --svg FILE, --help).
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${LZ_BUILD_DIR:-$REPO_DIR/build}
"$REPO_DIR/scripts/bootstrap.sh" lz-bench
"$BUILD_DIR/tools/lz_bench/lz-bench" "$@"
