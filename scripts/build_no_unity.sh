#!/usr/bin/env bash
# Compiles the libraries and tools file by file (GE_UNITY_BUILD=OFF) into
# ${NO_UNITY_BUILD_DIR:-build-nounity}: a .cc that compiles only because a
# batch neighbour included a header for it, or used a name its neighbour
# declared, fails here. Compile only, at -O0 (no tests, nothing run): the
# errors it looks for are the front end's, and -O0 compiles fastest.
# scripts/test.sh runs it in CI (GE_NO_UNITY=0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
BUILD_DIR=${NO_UNITY_BUILD_DIR:-build-nounity} BUILD_TYPE=NoUnity \
  scripts/build.sh -DGE_UNITY_BUILD=OFF -DGE_BUILD_TESTS=OFF
echo "build_no_unity.sh: libraries and tools compiled without unity batches in $(( $(date +%s) - start )) s"
