#!/usr/bin/env bash
# README's main job: builds and runs the example program (the fusion
# benchmark runner takes its place once it exists).
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${LZ_BUILD_DIR:-$REPO_DIR/build}
"$REPO_DIR/scripts/bootstrap.sh" hello_tensors
"$BUILD_DIR/examples/hello_tensors" "$@"
