#!/usr/bin/env bash
# bench_host_overhead.sh: host overhead per inference of the runtimes on a model whose kernels
# cost almost nothing: add_chain_1000.onnx (1000 dependent Adds on a [1,16] tensor), so the
# median latency is the runtime's own per-task cost (x1000).
#
#   scripts/bench_host_overhead.sh
#
# ge-atc converts MODELS_DIR/add_chain_1000.onnx (skipped with a message when absent); ge-run
# times it in sink mode (the calling thread runs the task list), sink with --timeout_ms (the
# stream's worker thread runs it: the host/worker hand-off included), and v2 (sequential
# executor); onnxruntime times the same .onnx through scripts/bench_ort.js when node and
# onnxruntime-node (ORT_DIR) are available. Prints median us per inference, ns per task and the
# ratio to onnxruntime, plus the load average (the machine may be shared: figures are noisy).
#
# Environment: BUILD_DIR (default build), MODELS_DIR (default ../shared/models), RUNS (default
# 5000, at least 1000), WARMUP (default 500), ORT_DIR (default ~/.cache/ge-ort).
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench_host_overhead.sh: $*" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; "") ;; *) die "unknown argument $1 (see --help)" ;; esac
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$REPO/$1" ;; esac; }
BUILD_DIR=$(abspath "${BUILD_DIR:-build}")
MODELS_DIR=$(abspath "${MODELS_DIR:-../shared/models}")
RUNS=${RUNS:-5000}
WARMUP=${WARMUP:-500}
ORT_DIR=${ORT_DIR:-$HOME/.cache/ge-ort}
[[ "$RUNS" =~ ^[0-9]+$ && "$RUNS" -ge 1000 ]] || die "RUNS must be an integer >= 1000, got '$RUNS'"
ATC=$BUILD_DIR/apps/ge-atc
RUN=$BUILD_DIR/apps/ge-run
[ -x "$ATC" ] && [ -x "$RUN" ] || die "ge-atc / ge-run not built in $BUILD_DIR (set BUILD_DIR)"
MODEL=$MODELS_DIR/add_chain_1000.onnx
if [ ! -f "$MODEL" ]; then echo "bench_host_overhead.sh: $MODEL is absent, skipping"; exit 0; fi
INPUT=$MODELS_DIR/add_chain_1000.input.npy
GOLDEN=$MODELS_DIR/add_chain_1000.output.npy
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$ATC" --model "$MODEL" --framework 5 --output "$TMP/add_chain" >/dev/null 2>&1 || die "ge-atc failed on $MODEL"

p50_us() {  # ge-run args... -> median latency in us
  "$RUN" --model "$TMP/add_chain.om" --input "$INPUT" --compare "$GOLDEN" --loop "$RUNS" --warmup "$WARMUP" --json "$@" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); assert d.get("compare")=="PASS", d; print("%.2f" % (d["latency_ms"]["p50"]*1000))'
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores); $RUNS timed runs after $WARMUP warmup"
SINK=$(p50_us --mode sink) || die "ge-run --mode sink failed"
SINK_W=$(p50_us --mode sink --timeout_ms 10000) || die "ge-run --mode sink --timeout_ms failed"
V2=$(p50_us --mode v2) || die "ge-run --mode v2 failed"
ORT=""
if command -v node >/dev/null && [ -d "$ORT_DIR/node_modules/onnxruntime-node" ]; then
  ORT=$(ORT_DIR=$ORT_DIR node "$REPO/scripts/bench_ort.js" --model "$MODEL" --input "$INPUT" --runs "$RUNS" \
        --warmup "$WARMUP" --threads 2 2>/dev/null | python3 -c 'import json,sys; print("%.2f" % (json.load(sys.stdin)["latency_ms"]["p50"]*1000))') || ORT=""
fi
[ -n "$ORT" ] || echo "(onnxruntime-node not available in $ORT_DIR: no ORT column)"
row() {  # name us budget_us
  local ratio="-"
  [ -n "$ORT" ] && ratio=$(python3 -c "print('%.3f' % ($2/$ORT))")
  python3 -c "print('%-28s %9.2f us/inference %7.1f ns/task  budget %3s us  %-4s ratio vs ORT %s' % ('$1', $2, $2, '$3', 'ok' if '$3'=='-' or $2 <= float('${3/-/0}') else 'OVER', '$ratio'))"
}
row "sink (calling thread)" "$SINK" 40
row "sink (stream worker)" "$SINK_W" -
row "v2 sequential" "$V2" 80
[ -n "$ORT" ] && row "onnxruntime" "$ORT" -
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
