#!/usr/bin/env bash
# README's test command: builds everything and runs the whole CTest suite.
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${LZ_BUILD_DIR:-$REPO_DIR/build}
"$REPO_DIR/scripts/bootstrap.sh" all
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" "$@"
