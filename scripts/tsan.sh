#!/usr/bin/env bash
# ThreadSanitizer over the code that runs on several threads (docs/hardening.md):
# builds ${BUILD_DIR:-build-tsan} with gcc -fsanitize=thread, only the HAL suite
# (streams, events, models) and the runtime and streams tests (sink load,
# execute, run loop, async, forks, timeouts, v2, multi-stream), and runs them.
# Extra args go to every test binary (e.g. --gtest_filter=Sink*).
# Exit 0 only if every test passes and TSan reports nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-tsan}
TESTS=(ge_hal_cts ge_unit_runtime ge_unit_streams)
scripts/setup.sh >/dev/null

LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  mkdir -p "$BUILD_DIR"
  # -O1 keeps TSan's slowdown bearable; -g1 gives its stacks file:line.
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
    "${LAUNCHER[@]}" > "$BUILD_DIR/cmake.log" 2>&1 || { cat "$BUILD_DIR/cmake.log"; exit 1; }
fi
ninja -C "$BUILD_DIR" -j"${JOBS:-$(nproc)}" "${TESTS[@]}"

# Debian's oneDNN and the GNU OpenMP runtime under it are not instrumented:
# TSan cannot see libgomp's barriers, so work split across an OpenMP team
# looks like unsynchronised writes. One OpenMP thread per team (the CPU
# backend gives each stream one thread on a 2-core machine anyway) removes
# that blind spot without hiding our own threads: stream workers, the run
# loop, events, forks. Where the backend still makes larger teams (more
# cores), tests/tsan.supp suppresses what that gives inside libdnnl only.
export OMP_NUM_THREADS=1
export TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp second_deadlock_stack=1 history_size=4 ${TSAN_OPTIONS:-}"
fail=0
reports=0
for t in "${TESTS[@]}"; do
  bin=$(find "$BUILD_DIR/tests" -name "$t" -type f -perm -u+x | head -1)
  log=$BUILD_DIR/tsan-$t.log
  echo "tsan: $t (log $log)"
  set +e
  "$bin" --gtest_brief=1 "$@" > "$log" 2>&1
  rc=$?
  set -e
  n=$(grep -c '^WARNING: ThreadSanitizer' "$log" || true)
  reports=$((reports + n))
  summary=$(grep -E '^\[  (PASSED|FAILED)  \]' "$log" | tr '\n' ' ')
  echo "tsan: $t: exit $rc, $n TSan report(s); $summary"
  if [ "$n" -gt 0 ]; then grep -E '^SUMMARY: ThreadSanitizer' "$log" | sort | uniq -c; fi
  [ $rc -ne 0 ] && fail=1
done
if [ $fail -ne 0 ] || [ $reports -ne 0 ]; then
  echo "tsan: FAILED ($reports report(s)); the reports are in $BUILD_DIR/tsan-*.log"
  exit 1
fi
echo "tsan: clean"
