#!/usr/bin/env bash
# Builds ge and runs every test (unit, HAL conformance, end to end, the fuzz
# corpus replay) with ctest, compiles the libraries and tools once without
# unity batches (scripts/build_no_unity.sh, so a file that builds only inside
# its batch fails CI; 1898 s cold, 46 s with ccache warm; GE_NO_UNITY=0 skips
# it), then runs the suite built with ASan + UBSan (scripts/test_sanitizers.sh;
# GE_SANITIZERS=0 skips it for a quick local run).
# Tests that need ../shared/models skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
start=$(date +%s)
scripts/build.sh
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"${JOBS:-2}" --timeout 900
echo "test.sh: release suite done in $(( $(date +%s) - start )) s"
if [ "${GE_NO_UNITY:-1}" != 0 ]; then
  scripts/build_no_unity.sh
fi
if [ "${GE_SANITIZERS:-1}" != 0 ]; then
  scripts/test_sanitizers.sh
  echo "test.sh: release + sanitizer suites done in $(( $(date +%s) - start )) s"
fi
