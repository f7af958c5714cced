#!/usr/bin/env bash
# bench_dynamic.sh: what a dynamic .om costs against the static one, in one run.
#
#   scripts/bench_dynamic.sh
#
# For each reference model of MODELS_DIR (resnet18, mobilenet_v2, bert_encoder; absent ones are
# skipped with a message) a copy with its batch dim made symbolic (an ONNX dim_param, written by
# Debian's python3-onnx) is converted with plain ge-atc next to the static original; ge-run times
# both at batch 1 against the golden, alternating ROUNDS times, and the ratio dynamic/static of
# the medians is printed. Then a 1000-node dynamic Relu/Neg chain (f32[n,4], built here, simplify
# and CSE off so every node stays) gives the v2 runtime's host time per node; resnet18 compiled with
# --dynamic_batch_size 1,2,4 is timed in sink mode against the static .om. Figures are noisy
# on a shared machine: compare within one run.
#
# Environment: BUILD_DIR (default build), MODELS_DIR (default ../shared/models), RUNS (default
# 30), ROUNDS (default 2).
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench_dynamic.sh: $*" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; "") ;; *) die "unknown argument $1 (see --help)" ;; esac
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$REPO/$1" ;; esac; }
BUILD_DIR=$(abspath "${BUILD_DIR:-build}")
MODELS_DIR=$(abspath "${MODELS_DIR:-../shared/models}")
RUNS=${RUNS:-30}
ROUNDS=${ROUNDS:-2}
PY=/usr/bin/python3
ATC=$BUILD_DIR/apps/ge-atc
RUN=$BUILD_DIR/apps/ge-run
[ -x "$ATC" ] && [ -x "$RUN" ] || die "ge-atc / ge-run not built in $BUILD_DIR (set BUILD_DIR)"
"$PY" -c 'import onnx' 2>/dev/null || die "$PY cannot import onnx (apt-get install python3-onnx)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

p50_ms() {  # om input golden -> median latency in ms
  "$RUN" --model "$1" --input "$2" --compare "$3" --loop "$RUNS" --warmup 3 --json |
    "$PY" -c 'import json,sys; r=json.load(sys.stdin); assert r["compare"]=="PASS", r; print(r["latency_ms"]["p50"])'
}

echo "model            static p50 ms   dynamic p50 ms   dynamic/static"
for name in resnet18 mobilenet_v2 bert_encoder; do
  src=$MODELS_DIR/$name.onnx
  if [ ! -f "$src" ]; then echo "bench_dynamic.sh: $src is absent, skipping"; continue; fi
  "$PY" - "$src" "$TMP/${name}_dyn.onnx" <<'EOF' || die "cannot write the dynamic copy of $src"
import sys, onnx
m = onnx.load(sys.argv[1])
inits = {i.name for i in m.graph.initializer}
for vi in list(m.graph.input) + list(m.graph.output):
    if vi.name not in inits:
        vi.type.tensor_type.shape.dim[0].dim_param = "batch"
del m.graph.value_info[:]
onnx.save(m, sys.argv[2])
EOF
  "$ATC" --model "$src" --framework 5 --output "$TMP/${name}_static" >/dev/null 2>&1 || die "ge-atc failed on $src"
  "$ATC" --model "$TMP/${name}_dyn.onnx" --framework 5 --output "$TMP/${name}_dyn" >/dev/null 2>&1 ||
    die "ge-atc failed on the dynamic copy of $src"
  s=(); d=()
  for ((r = 0; r < ROUNDS; r++)); do
    s+=("$(p50_ms "$TMP/${name}_static.om" "$MODELS_DIR/$name.input.npy" "$MODELS_DIR/$name.output.npy")") || die "$name static failed"
    d+=("$(p50_ms "$TMP/${name}_dyn.om" "$MODELS_DIR/$name.input.npy" "$MODELS_DIR/$name.output.npy")") || die "$name dynamic failed"
  done
  "$PY" -c 'import sys,statistics as st; n=int(sys.argv[1]); v=list(map(float,sys.argv[3:])); s=st.median(v[:n]); d=st.median(v[n:]); print(f"{sys.argv[2]:<16} {s:>14.3f} {d:>16.3f} {d/s:>15.2f}x")' \
    "$ROUNDS" "$name" "${s[@]}" "${d[@]}"
done

# ATC's gears: resnet18 with --dynamic_batch_size 1,2,4 at batch 1, sink mode, against the static .om.
if [ -f "$TMP/resnet18_dyn.onnx" ]; then
  "$ATC" --model "$TMP/resnet18_dyn.onnx" --framework 5 --output "$TMP/resnet18_gears" --dynamic_batch_size 1,2,4 \
    >/dev/null 2>&1 || die "ge-atc --dynamic_batch_size failed on resnet18"
  p50_sink() { "$RUN" --mode sink --model "$1" --input "$MODELS_DIR/resnet18.input.npy" --compare "$MODELS_DIR/resnet18.output.npy" \
    --loop "$RUNS" --warmup 3 --json | "$PY" -c 'import json,sys; r=json.load(sys.stdin); assert r["compare"]=="PASS", r; print(r["latency_ms"]["p50"])'; }
  s=(); g=()
  for ((r = 0; r < ROUNDS; r++)); do
    s+=("$(p50_sink "$TMP/resnet18_static.om")") || die "resnet18 static (sink) failed"
    g+=("$(p50_sink "$TMP/resnet18_gears.om")") || die "resnet18 gears (sink) failed"
  done
  "$PY" -c 'import sys,statistics as st; n=int(sys.argv[1]); v=list(map(float,sys.argv[2:])); s=st.median(v[:n]); g=st.median(v[n:]); print(f"resnet18 gears 1,2,4 at batch 1, sink: static {s:.3f} ms, gear {g:.3f} ms, {g/s:.2f}x")' \
    "$ROUNDS" "${s[@]}" "${g[@]}"
fi

"$PY" - "$TMP/chain.onnx" "$TMP/x.npy" <<'EOF' || die "cannot write the chain model"
import sys, numpy as np, onnx
from onnx import helper, TensorProto
nodes, prev = [], "x"
for i in range(1000):
    nodes.append(helper.make_node("Relu" if i % 2 == 0 else "Neg", [prev], [f"t{i}"]))
    prev = f"t{i}"
g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4])],
                      [helper.make_tensor_value_info(prev, TensorProto.FLOAT, ["n", 4])])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
np.save(sys.argv[2], np.ones((1, 4), np.float32))
EOF
"$ATC" --model "$TMP/chain.onnx" --framework 5 --output "$TMP/chain" --disable_pass algebraic_simplify,cse >/dev/null 2>&1 ||
  die "ge-atc failed on the chain"
for executor in sequential topological; do
  "$RUN" --model "$TMP/chain.om" --input "$TMP/x.npy" --loop 2000 --warmup 50 --executor "$executor" --json |
    "$PY" -c 'import json,sys; r=json.load(sys.stdin); p=r["latency_ms"]["p50"]; print(f"1000-node dynamic chain ({sys.argv[1]}): {p:.3f} ms p50 = {p*1000:.0f} ns per node")' "$executor"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
