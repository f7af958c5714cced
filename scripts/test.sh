#!/usr/bin/env bash
# Builds ge and runs every test (unit, HAL conformance, end to end) with ctest.
# Tests that need ../shared/models skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/build.sh
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"${JOBS:-2}" --timeout 900
