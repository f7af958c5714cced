#!/usr/bin/env bash
# bench_bf16.sh: what --precision_mode allow_mix_precision gains and costs, in one run.
#
#   scripts/bench_bf16.sh
#
# For each model (resnet50 and bert_base from BENCH_DIR, bert_encoder from MODELS_DIR; absent
# ones are skipped with a message): ge-dump precision searches the ops to keep in float32 for
# MIN_COSINE against the model's float32 golden and writes the --keep_dtype file; ge-atc builds
# the float32 model, the plain mixed one and the mixed one with that file; ge-run times the three
# alternately (sink mode, ROUNDS rounds of RUNS runs) and reports each one's cosine against the
# golden. Prints a Markdown table: p50 per build, the speed-up of each bf16 build over float32,
# and its cosine. On a CPU without native bf16 it says so and exits 0.
#
# Environment: BUILD_DIR (default build), BENCH_DIR (default bench-models; scripts/gen_bench_models.py
# writes it), MODELS_DIR (default ../shared/models), MODELS (names, default "resnet50 bert_base
# bert_encoder"), MIN_COSINE (default 0.999), RUNS (default 30), ROUNDS (default 3), OUT_DIR
# (default bench-out: the .om and keep files stay there).
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench_bf16.sh: $*" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; "") ;; *) die "unknown argument $1 (see --help)" ;; esac
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$REPO/$1" ;; esac; }
BUILD_DIR=$(abspath "${BUILD_DIR:-build}")
BENCH_DIR=$(abspath "${BENCH_DIR:-bench-models}")
MODELS_DIR=$(abspath "${MODELS_DIR:-../shared/models}")
OUT_DIR=$(abspath "${OUT_DIR:-bench-out}")
MODELS=${MODELS:-resnet50 bert_base bert_encoder}
MIN_COSINE=${MIN_COSINE:-0.999}
RUNS=${RUNS:-30}
ROUNDS=${ROUNDS:-3}
PY=/usr/bin/python3
ATC=$BUILD_DIR/apps/ge-atc
RUN=$BUILD_DIR/apps/ge-run
DUMP=$BUILD_DIR/apps/ge-dump
[ -x "$ATC" ] && [ -x "$RUN" ] && [ -x "$DUMP" ] || die "ge-atc / ge-run / ge-dump not built in $BUILD_DIR (set BUILD_DIR)"
grep -qw avx512_bf16 /proc/cpuinfo || grep -qw amx_bf16 /proc/cpuinfo || {
  echo "bench_bf16.sh: this CPU has no native bf16 (AVX512-BF16 or AMX); allow_mix_precision is refused here"
  exit 0
}
mkdir -p "$OUT_DIR/bf16" || die "cannot create $OUT_DIR/bf16"
W=$OUT_DIR/bf16

run_json() {  # om input golden -> "p50 cosine"
  "$RUN" --mode sink --model "$1" --input "$2" --compare "$3" --min_cosine 0.9 --loop "$RUNS" --warmup 5 --json |
    "$PY" -c 'import json,sys; r=json.load(sys.stdin); print(r["latency_ms"]["p50"], min(o["cosine"] for o in r["outputs"]))'
}

# stdin: "build p50 cosine" lines; prints the model's table row (medians of p50, the last cosine).
SUMMARISE='
import sys, statistics as st
name, kept = sys.argv[1], sys.argv[2]
p, c = {}, {}
for line in sys.stdin:
    b, p50, cos = line.split()
    p.setdefault(b, []).append(float(p50))
    c[b] = float(cos)
m = {b: st.median(v) for b, v in p.items()}
f, b, k = m["fp32"], m["bf16"], m["keep"]
cb, ck = c["bf16"], c["keep"]
print(f"| {name} | {f:.2f} | {b:.2f} | {k:.2f} | {f / b:.2f}x | {cb:.6f} | {f / k:.2f}x | {ck:.6f} | {kept} |")
'

echo "| model | fp32 p50 ms | bf16 p50 ms | bf16 + keep p50 ms | bf16 speed-up | cosine | bf16 + keep speed-up | cosine | kept in f32 |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for name in $MODELS; do
  dir=$BENCH_DIR
  [ -f "$dir/$name.onnx" ] || dir=$MODELS_DIR
  src=$dir/$name.onnx x=$dir/$name.input.npy y=$dir/$name.output.npy
  if [ ! -f "$src" ]; then echo "bench_bf16.sh: $name.onnx is in neither $BENCH_DIR nor $MODELS_DIR, skipping" >&2; continue; fi
  "$DUMP" precision --model "$src" --input "$x" --golden "$y" --min_cosine "$MIN_COSINE" --write "$W/$name.keep.txt" \
    >"$W/$name.precision.txt" 2>"$W/$name.precision.log" || die "ge-dump precision failed on $name (see $W/$name.precision.log)"
  kept=$(grep -c '^OpName::' "$W/$name.keep.txt")
  "$ATC" --model "$src" --framework 5 --output "$W/${name}_fp32" >/dev/null 2>&1 || die "ge-atc failed on $name"
  "$ATC" --model "$src" --framework 5 --output "$W/${name}_bf16" --precision_mode allow_mix_precision >/dev/null 2>&1 ||
    die "ge-atc --precision_mode allow_mix_precision failed on $name"
  "$ATC" --model "$src" --framework 5 --output "$W/${name}_keep" --precision_mode allow_mix_precision \
    --keep_dtype "$W/$name.keep.txt" >/dev/null 2>&1 || die "ge-atc --keep_dtype failed on $name"
  rows=()
  for ((r = 0; r < ROUNDS; r++)); do
    for b in fp32 bf16 keep; do
      rows+=("$b $(run_json "$W/${name}_$b.om" "$x" "$y")") || die "ge-run failed on ${name}_$b"
    done
  done
  printf '%s\n' "${rows[@]}" | "$PY" -c "$SUMMARISE" "$name" "$kept" || die "cannot summarise $name"
done
echo "min cosine searched for: $MIN_COSINE; medians of $ROUNDS rounds of $RUNS runs; files in $W"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
