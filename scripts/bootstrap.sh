#!/usr/bin/env bash
# Shared set-up for the README commands: installs missing Debian packages,
# configures a Release build with Ninja (once) and builds the given targets.
# Re-running with nothing changed costs a package check and a no-op build.
#   scripts/bootstrap.sh <cmake target>...
set -euo pipefail

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${LZ_BUILD_DIR:-$REPO_DIR/build}

# What each package is for: see README.md, "Dependencies".
PACKAGES=(cmake ninja-build g++ python3 libabsl-dev catch2 libbenchmark-dev libopenblas-dev llvm-dev)

missing=()
if command -v dpkg-query >/dev/null; then
  for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
  done
fi
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$REPO_DIR" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD_DIR" --target "$@"
