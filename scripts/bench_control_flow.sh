#!/usr/bin/env bash
# bench_control_flow.sh: what a loop costs per iteration in each runtime.
#
#   scripts/bench_control_flow.sh
#
# tests/e2e/loop_models.py writes two ONNX loops with a trip count input M (needs Debian's
# python3-numpy and python3-onnx): add_loop (h = h + 1 on [1,16]: a body of one tiny kernel, so
# its time is the runtime's own) and mlp_loop (h = tanh(0.9 h W + b), W [64,64]). Each converts
# twice: with the loop in the static plan (--control_flow sink, the default: linked into label
# tasks, one HAL call per inference) and left to the v2 converters (--control_flow v2, a dynamic
# model). ge-run times M = 0 and M = 16 (and 256 for add_loop); per iteration =
# (p50(M) - p50(0)) / M. Prints a table of median microseconds and nanoseconds per iteration,
# with the ratio of the converters to sink mode (both in this run), and the load average.
#
# Environment: BUILD_DIR (default build), RUNS (default 2000), WARMUP (default 200).
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench_control_flow.sh: $*" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; "") ;; *) die "unknown argument $1 (see --help)" ;; esac
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$REPO/$1" ;; esac; }
BUILD_DIR=$(abspath "${BUILD_DIR:-build}")
RUNS=${RUNS:-2000}
WARMUP=${WARMUP:-200}
[[ "$RUNS" =~ ^[0-9]+$ && "$RUNS" -ge 100 ]] || die "RUNS must be an integer >= 100, got '$RUNS'"
ATC=$BUILD_DIR/apps/ge-atc
RUN=$BUILD_DIR/apps/ge-run
[ -x "$ATC" ] && [ -x "$RUN" ] || die "ge-atc / ge-run not built in $BUILD_DIR (set BUILD_DIR)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 "$REPO/tests/e2e/loop_models.py" "$TMP" >/dev/null || die "tests/e2e/loop_models.py failed (python3-numpy, python3-onnx?)"
for m in add_loop mlp_loop; do
  "$ATC" --model "$TMP/$m.onnx" --framework 5 --output "$TMP/$m.sink" >/dev/null 2>&1 || die "ge-atc failed on $m"
  "$ATC" --model "$TMP/$m.onnx" --framework 5 --output "$TMP/$m.v2" --control_flow v2 >/dev/null 2>&1 || die "ge-atc --control_flow v2 failed on $m"
done

p50_us() {  # om case mode -> median latency in us (the result checked against numpy's)
  local om=$1 case=$2 mode=$3
  "$RUN" --model "$TMP/$om.om" --input "$TMP/$case.in0.npy,$TMP/$case.in1.npy" --compare "$TMP/$case.out0.npy" \
    --mode "$mode" --loop "$RUNS" --warmup "$WARMUP" --json 2>/dev/null |
    /usr/bin/python3 -c 'import json,sys; print("%.3f" % (json.load(sys.stdin)["latency_ms"]["p50"] * 1000))' ||
    die "ge-run failed on $om $case --mode $mode"
}

printf "%-9s %-26s %10s %10s %10s %14s\n" model runtime "M=0 us" "M=16 us" "M=256 us" "ns/iteration"
for m in add_loop mlp_loop; do
  ratio_base=""
  for way in "sink:sink:sink (label tasks)" "sink:v2:v2 (same linked list)" "v2:v2:v2 converters"; do
    IFS=: read -r build mode label <<<"$way"
    t0=$(p50_us "$m.$build" "$m.m0" "$mode")
    t16=$(p50_us "$m.$build" "$m.m16" "$mode")
    if [ "$m" = add_loop ]; then
      tn=$(p50_us "$m.$build" "$m.m256" "$mode"); n=256
    else
      tn="-"; n=16
    fi
    last=$([ "$n" = 256 ] && echo "$tn" || echo "$t16")
    per=$(/usr/bin/python3 -c "print('%.0f' % (($last - $t0) * 1000 / $n))")
    [ -z "$ratio_base" ] && ratio_base=$per
    ratio=$(/usr/bin/python3 -c "print('%.1fx' % ($per / max($ratio_base, 1e-9)))")
    printf "%-9s %-26s %10s %10s %10s %14s  (%s of sink)\n" "$m" "$label" "$t0" "$t16" "$tn" "$per" "$ratio"
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
