#!/usr/bin/env bash
# bench_vs_ort.sh: ge (sink and v2 mode) against onnxruntime (CPU, onnxruntime-node) on the same
# machine in one run. Builds nothing; see docs/benchmarks.md.
#
#   scripts/bench_vs_ort.sh [--json] [--no-check] [--export] [--out DIR] [MODEL ...]
#
# Models: MODEL names (or the MODELS env, space-separated); default: every model of the benchmark
# set in BENCH_DIR (what scripts/gen_bench_models.py exports: resnet50 ... gpt_decoder) and every
# MODELS_DIR/*.onnx with an input (../shared/models, when present). A name is looked up in BENCH_DIR
# first, then MODELS_DIR; each needs NAME.onnx and NAME.input.npy, NAME.output.npy is the golden.
# --export: export the benchmark-set models missing from BENCH_DIR first (python3-torch, minutes).
#
# Per model: ge-atc converts it once; then ROUNDS rounds, each running three fresh processes one
# after the other, the order rotating per round: `ge-run --mode sink`, `ge-run --mode v2` and
# onnxruntime (scripts/bench_ort.js), each WARMUP untimed and RUNS timed inferences. Per engine:
# p50 and p90 over all ROUNDS x RUNS timed runs, the median load time and peak RSS of the rounds,
# the output against the golden (every round; --no-check skips), and the achieved GFLOP/s (the
# model's FLOPs as ge-dump flops counts them / p50) against the roof: the GFLOP/s of a large oneDNN
# convolution that ge-conv-roof measures once at the start with the same THREADS.
#
# Output: the table on stdout (with --json: report.json instead; progress always on stderr), and
# in the output dir (--out DIR, default OUT_DIR or bench-out/ in the repo, gitignored):
#   report.md    the table in Markdown with the date, CPU and settings
#   report.json  {meta, models: [{model, flops, sink|v2|ort: {p50_ms, p90_ms, runs, load_ms,
#                peak_rss_mb, peak_rss_mb_min, peak_rss_mb_max, golden, gflops_per_s, roof_pct},
#                ratio_sink, ratio_v2, ...}], summary}
#                (peak_rss_mb is the median over the rounds; min and max show a bimodal engine, and
#                both tables list every engine whose RSS spread over 10 %)
#   report.svg   a bar chart of ge/onnxruntime per model (sink and v2), for a browser
# Columns: sink/v2/ort ms = p50; sink/ort, v2/ort = ratio (< 1: ge faster); load ms and RSS MB per
# engine; GFLOP/s and % of the roof; golden = PASS/FAIL/- per engine; note = the first error.
#
# Exit: 0 every model ran and matched; 1 some model had an error or a wrong output; 2 a tool, model
# or setting is missing (ge-atc/ge-run/ge-conv-roof not built, node or npm missing, bad env value).
#
# Environment:
#   BUILD_DIR    ge build tree with apps/ge-atc, apps/ge-run, apps/ge-conv-roof (default: build)
#   BENCH_DIR    the exported benchmark set (default /tmp/bench)
#   MODELS_DIR   reference models (default: ../shared/models relative to the repo root)
#   ROUNDS       rounds of fresh processes per model (default 3)
#   RUNS         timed runs per process (default 10: 30 per engine with ROUNDS=3)
#   WARMUP       untimed runs per process before them (default 3)
#   THREADS      compute threads for every engine (default 2): ORT intraOpNumThreads, ge OMP_NUM_THREADS
#   ORT_DIR      where onnxruntime-node is npm-installed (default ~/.cache/ge-ort; installed once with
#                npm install --ignore-scripts onnxruntime-node when missing)
#   ROOF_RUNS    timed runs of ge-conv-roof (default 20; 0: no roof)
#   STEP_TIMEOUT seconds one ge-atc / ge-run / ort process may take (default 900)
#   OUT_DIR      the output dir (default bench-out)
#   MODELS       space-separated model names, instead of positional arguments
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench_vs_ort.sh: $*" >&2; exit 2; }
say() { echo "$*" >&2; }

JSON=0 CHECK=1 EXPORT=0 OUT=""
ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --json) JSON=1 ;;
    --no-check) CHECK=0 ;;
    --export) EXPORT=1 ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; OUT=$2; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) ARGS+=("$1") ;;
  esac
  shift
done

abspath() {
  local p
  case "$1" in /*) p=$1 ;; *) p=$REPO/$1 ;; esac
  if [ -d "$p" ]; then (cd "$p" && pwd); else echo "$p"; fi
}
BUILD_DIR=$(abspath "${BUILD_DIR:-build}")
BENCH_DIR=$(abspath "${BENCH_DIR:-/tmp/bench}")
MODELS_DIR=$(abspath "${MODELS_DIR:-../shared/models}")
OUT_DIR=$(abspath "${OUT:-${OUT_DIR:-bench-out}}")
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
THREADS=${THREADS:-2}
ROOF_RUNS=${ROOF_RUNS:-20}
ORT_DIR=${ORT_DIR:-$HOME/.cache/ge-ort}
STEP_TIMEOUT=${STEP_TIMEOUT:-900}
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, got '$ROUNDS'"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$RUNS'"
[[ "$WARMUP" =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer, got '$WARMUP'"
[[ "$THREADS" =~ ^[1-9][0-9]*$ ]] || die "THREADS must be a positive integer, got '$THREADS'"
[[ "$ROOF_RUNS" =~ ^[0-9]+$ ]] || die "ROOF_RUNS must be a non-negative integer, got '$ROOF_RUNS'"
[[ "$STEP_TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "STEP_TIMEOUT must be a positive integer, got '$STEP_TIMEOUT'"

# The benchmark set's names, from the exporter itself (its MODELS table), without importing torch.
BENCH_SET=$(sed -n '/^MODELS = {/,/^}/s/^    "\([a-z0-9_]*\)":.*/\1/p' "$REPO/scripts/gen_bench_models.py" | tr '\n' ' ')

# ---- preflight: everything missing is fatal, one line each -----------------------------------
GE_ATC=$BUILD_DIR/apps/ge-atc GE_RUN=$BUILD_DIR/apps/ge-run GE_ROOF=$BUILD_DIR/apps/ge-conv-roof
for t in "$GE_ATC" "$GE_RUN" "$GE_ROOF"; do
  [ -x "$t" ] || die "missing $t (build it: scripts/build.sh, or set BUILD_DIR)"
done
command -v node >/dev/null || die "missing node (Node.js 18+ runs the onnxruntime baseline and the report)"
command -v timeout >/dev/null || die "missing timeout (coreutils)"
for f in bench_ort.js bench_report.js; do [ -f "$REPO/scripts/$f" ] || die "missing $REPO/scripts/$f"; done

if [ "$EXPORT" = 1 ]; then
  say "exporting the benchmark set's missing models into $BENCH_DIR ..."
  /usr/bin/python3 "$REPO/scripts/gen_bench_models.py" "$BENCH_DIR" >&2 || die "gen_bench_models.py failed"
fi
if [ ${#ARGS[@]} -gt 0 ]; then
  MODEL_LIST=("${ARGS[@]}")
elif [ -n "${MODELS:-}" ]; then
  read -r -a MODEL_LIST <<<"$MODELS"
else
  MODEL_LIST=()
  missing=()
  for m in $BENCH_SET; do
    if [ -f "$BENCH_DIR/$m.onnx" ]; then MODEL_LIST+=("$m"); else missing+=("$m"); fi
  done
  [ ${#missing[@]} -gt 0 ] && say "note: not in BENCH_DIR $BENCH_DIR: ${missing[*]} (export: --export, or /usr/bin/python3 scripts/gen_bench_models.py $BENCH_DIR)"
  if [ -d "$MODELS_DIR" ]; then
    for f in "$MODELS_DIR"/*.onnx; do
      [ -f "$f" ] || continue
      m=$(basename "$f" .onnx)
      [ -f "$MODELS_DIR/$m.input.npy" ] && [[ " ${MODEL_LIST[*]} " != *" $m "* ]] && MODEL_LIST+=("$m")
    done
  fi
  [ ${#MODEL_LIST[@]} -gt 0 ] || die "no models: BENCH_DIR $BENCH_DIR and MODELS_DIR $MODELS_DIR hold none (see --help)"
fi
model_dir() {
  if [ -f "$BENCH_DIR/$1.onnx" ]; then echo "$BENCH_DIR"; elif [ -f "$MODELS_DIR/$1.onnx" ]; then echo "$MODELS_DIR"; fi
}
for m in "${MODEL_LIST[@]}"; do
  d=$(model_dir "$m")
  [ -n "$d" ] || die "missing model $m.onnx (looked in BENCH_DIR $BENCH_DIR and MODELS_DIR $MODELS_DIR)"
  [ -f "$d/$m.input.npy" ] || die "missing input $d/$m.input.npy"
done

# ---- onnxruntime-node: install once into ORT_DIR, prove the CPU binding loads ----------------
ort_loads() {
  ls "$ORT_DIR"/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/onnxruntime_binding.node >/dev/null 2>&1 &&
    (cd "$ORT_DIR" && node -e "const o=require('onnxruntime-node'); o.InferenceSession; process.stdout.write(o.env.versions.node)") 2>/dev/null
}
if ! ORT_VERSION=$(ort_loads); then
  command -v npm >/dev/null || die "missing npm (needed once to install onnxruntime-node into $ORT_DIR)"
  say "installing onnxruntime-node into $ORT_DIR (npm install --ignore-scripts) ..."
  mkdir -p "$ORT_DIR" || die "cannot create ORT_DIR $ORT_DIR"
  [ -f "$ORT_DIR/package.json" ] || echo '{"name":"ge-ort","private":true}' >"$ORT_DIR/package.json"
  (cd "$ORT_DIR" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error onnxruntime-node >&2) ||
    die "npm install --ignore-scripts onnxruntime-node failed in $ORT_DIR"
  ORT_VERSION=$(ort_loads) || die "onnxruntime-node in $ORT_DIR does not load: $(cd "$ORT_DIR" && node -e "require('onnxruntime-node')" 2>&1 | grep -m1 -i error)"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench_vs_ort.XXXXXX") || die "cannot create a temp dir"
trap 'rm -rf "$TMP"' EXIT
MANIFEST=$TMP/runs.jsonl
: >"$MANIFEST"
# jfield FILE EXPR: a JS expression over the JSON `j` a tool printed into FILE (for progress lines).
jfield() {
  node -e '
    const txt = require("fs").readFileSync(process.argv[1], "utf8"); let j;
    try { j = JSON.parse(txt); } catch (e) { try { j = JSON.parse(txt.split("\n").filter((s) => s.startsWith("{")).pop()); } catch (e2) { process.exit(0); } }
    let v; try { v = eval(process.argv[2]); } catch (e) { process.exit(0); }
    if (v !== undefined && v !== null) process.stdout.write(typeof v === "number" ? v.toFixed(2) : String(v));
  ' "$1" "$2" 2>/dev/null
}
jesc() { local s=${1//\\/\\\\}; printf '%s' "${s//\"/\\\"}"; }  # a JSON string's contents
record() {  # model engine round rc out err [extra JSON fields]
  printf '{"model":"%s","engine":"%s","round":%s,"rc":%s,"out":"%s","err":"%s"%s}\n' "$(jesc "$1")" "$2" "$3" "$4" \
    "$(jesc "$5")" "$(jesc "$6")" "${7:-}" >>"$MANIFEST"
}

# ---- the roof ---------------------------------------------------------------------------------
LOADAVG_START=$(cut -d' ' -f1-3 /proc/loadavg)
ROOF_JSON=null
if [ "$ROOF_RUNS" -gt 0 ]; then
  if OMP_NUM_THREADS=$THREADS timeout "$STEP_TIMEOUT" "$GE_ROOF" --runs "$ROOF_RUNS" --json >"$TMP/roof.json" 2>"$TMP/roof.err"; then
    ROOF_JSON=$(cat "$TMP/roof.json")
    say "# roof: $(jfield "$TMP/roof.json" 'j.gflops_per_s') GFLOP/s ($(jfield "$TMP/roof.json" 'j.shape'), $(jfield "$TMP/roof.json" 'j.impl'), $THREADS threads)"
  else
    say "# roof: ge-conv-roof failed: $(tail -n1 "$TMP/roof.err")"
  fi
fi
say "# ${#MODEL_LIST[@]} models, $ROUNDS rounds x $RUNS runs (+$WARMUP warm-up) per engine, threads $THREADS," \
    "onnxruntime-node $ORT_VERSION; nproc $(nproc), load average $LOADAVG_START"
# A loaded machine slows the engines unevenly: say so up front.
if awk -v l="${LOADAVG_START%% *}" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
  say "# WARNING: 1-min load average ${LOADAVG_START%% *} on $(nproc) cores: other processes compete for the CPU, numbers will be noisy"
fi

# ---- run --------------------------------------------------------------------------------------
ENGINES=(sink v2 ort)
for m in "${MODEL_LIST[@]}"; do
  d=$(model_dir "$m")
  onnx=$d/$m.onnx in=$d/$m.input.npy gold=$d/$m.output.npy
  have_gold=0
  [ "$CHECK" = 1 ] && [ -f "$gold" ] && have_gold=1
  t0=$(date +%s.%N)
  timeout "$STEP_TIMEOUT" "$GE_ATC" --model "$onnx" --framework 5 --output "$TMP/$m" >"$TMP/$m.atc.log" 2>&1
  rc=$?
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  record "$m" atc 0 "$rc" "$TMP/$m.atc.log" "$TMP/$m.atc.log" ",\"seconds\":$secs,\"source\":\"$(jesc "$onnx")\""
  if [ $rc -ne 0 ] || [ ! -f "$TMP/$m.om" ]; then
    say "$m: ge-atc failed after ${secs}s: $(grep -v '^[[:space:]]*$' "$TMP/$m.atc.log" | tail -n1 | cut -c1-160)"
  else
    say "$m: converted in ${secs}s"
  fi
  for ((r = 1; r <= ROUNDS; r++)); do
    line="$m round $r/$ROUNDS:"
    for ((k = 0; k < 3; k++)); do
      e=${ENGINES[$(((k + r - 1) % 3))]}
      out=$TMP/$m.$e.$r.json err=$TMP/$m.$e.$r.err
      if [ "$e" = ort ]; then
        gold_args=()
        [ $have_gold = 1 ] && gold_args=(--golden "$gold")
        ORT_DIR=$ORT_DIR timeout "$STEP_TIMEOUT" node "$REPO/scripts/bench_ort.js" --model "$onnx" --input "$in" \
          "${gold_args[@]}" --runs "$RUNS" --warmup "$WARMUP" --threads "$THREADS" --ort-dir "$ORT_DIR" >"$out" 2>"$err"
        rc=$?
      elif [ -f "$TMP/$m.om" ]; then
        cmp_args=()
        [ $have_gold = 1 ] && cmp_args=(--compare "$gold")
        OMP_NUM_THREADS=$THREADS timeout "$STEP_TIMEOUT" "$GE_RUN" --model "$TMP/$m.om" --mode "$e" --input "$in" \
          --loop "$RUNS" --warmup "$WARMUP" --json "${cmp_args[@]}" >"$out" 2>"$err"
        rc=$?
      else
        continue  # no .om: the conversion's error is the note
      fi
      record "$m" "$e" "$r" "$rc" "$out" "$err"
      p50=$(jfield "$out" 'j.latency_ms.p50')
      line="$line $e ${p50:-error} ms"
    done
    say "$line"
  done
done

# ---- report -----------------------------------------------------------------------------------
LOADAVG_END=$(cut -d' ' -f1-3 /proc/loadavg)
node -e '
  const [threads, rounds, runs, warmup, ort, la0, la1, roof] = process.argv.slice(1);
  process.stdout.write(JSON.stringify({ threads: +threads, rounds: +rounds, runs: +runs, warmup: +warmup,
    ort_version: ort, loadavg_start: la0, loadavg_end: la1, roof: JSON.parse(roof) }));
' "$THREADS" "$ROUNDS" "$RUNS" "$WARMUP" "$ORT_VERSION" "$LOADAVG_START" "$LOADAVG_END" "$ROOF_JSON" >"$TMP/meta.json" ||
  die "cannot write the report's settings"
json_args=()
[ "$JSON" = 1 ] && json_args=(--json)
node "$REPO/scripts/bench_report.js" --manifest "$MANIFEST" --meta "$TMP/meta.json" --out "$OUT_DIR" "${json_args[@]}"
rc=$?
[ $rc -le 1 ] && say "# wrote $OUT_DIR/report.md, report.json, report.svg"
exit $rc
