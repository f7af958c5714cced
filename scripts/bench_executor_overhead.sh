#!/usr/bin/env bash
# bench_executor_overhead.sh: the host cost per node of the v2 executors (sequential, topological,
# parallel on 1, 2 and 4 threads) on 1000 nodes that do nothing, as a chain and independent; then
# the sequential executor bare and behind the deadline guards of a timeout (alternated, medians).
#
#   scripts/bench_executor_overhead.sh [RUNS]
#
# Runs BUILD_DIR/apps/ge-bench-executor (default build; `ninja -C build ge-bench-executor`) with
# RUNS runs of each executor (default 2000). Prints ns per node and the load average: the
# machine may be shared, so the figures are noisy.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench_executor_overhead.sh: $*" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
BUILD_DIR=${BUILD_DIR:-build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$REPO/$BUILD_DIR ;; esac
RUNS=${1:-2000}
[[ "$RUNS" =~ ^[0-9]+$ && "$RUNS" -ge 1 ]] || die "RUNS must be a positive integer, got '$RUNS'"
BENCH=$BUILD_DIR/apps/ge-bench-executor
[ -x "$BENCH" ] || die "$BENCH not built (ninja -C $BUILD_DIR ge-bench-executor)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$BENCH" "$RUNS"
