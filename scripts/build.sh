#!/usr/bin/env bash
# Configures and builds ge into ${BUILD_DIR:-build} (Release). Extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)  # rebuilds only; never required
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "${LAUNCHER[@]}" "$@" > "$BUILD_DIR.cmake.log" 2>&1 || { cat "$BUILD_DIR.cmake.log"; exit 1; }
ninja -C "$BUILD_DIR" -j"${JOBS:-$(nproc)}"
