#!/usr/bin/env bash
# Configures and builds ge into ${BUILD_DIR:-build} (Release). Extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
LAUNCHER=()
if command -v ccache >/dev/null; then  # rebuilds only; never required
  LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths relative to the checkout and no build directory in the hash, so a
  # fresh clone elsewhere (CI) reuses what another checkout compiled; the
  # precompiled headers are cacheable only with these sloppinesses.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "${LAUNCHER[@]}" "$@" > "$BUILD_DIR.cmake.log" 2>&1 || { cat "$BUILD_DIR.cmake.log"; exit 1; }
ninja -C "$BUILD_DIR" -j"${JOBS:-$(nproc)}"
