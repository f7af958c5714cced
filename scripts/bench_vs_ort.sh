#!/usr/bin/env bash
# bench_vs_ort.sh: latency of `ge-run --mode v2` against onnxruntime (CPU, onnxruntime-node)
# on the same machine in the same run. Builds nothing; see docs/benchmarks.md.
#
#   scripts/bench_vs_ort.sh [--json] [--no-check] [MODEL ...]
#
# Per model (default: resnet18 mobilenet_v2 squeezenet1_1 bert_encoder small_cnn): ge-atc converts
# MODELS_DIR/MODEL.onnx into a temp dir, ge-run times it, then onnxruntime times the same .onnx
# (ge then ort per model, so drift hits both). Prints `model ge_p50_ms ort_p50_ms ratio ...`;
# ratio = ge/ort (< 1: ge faster). With --json also one JSON line per model.
# By default both outputs are checked against MODEL.output.npy (README criterion); --no-check skips.
# Exit: 0 all rows fine, 1 some row has an error or a wrong output, 2 a tool/model/setting is missing.
#
# Environment:
#   BUILD_DIR    ge build tree with apps/ge-atc, apps/ge-run (default: build, relative to the repo root)
#   MODELS_DIR   reference models (default: ../shared/models relative to the repo root)
#   RUNS         timed runs per model and engine (default 20)
#   WARMUP       untimed runs before them (default 5)
#   THREADS      compute threads for both engines (default 2): ORT intraOpNumThreads, ge OMP_NUM_THREADS
#   ORT_DIR      where onnxruntime-node is npm-installed (default ~/.cache/ge-ort; installed once)
#   STEP_TIMEOUT seconds one ge-atc / ge-run / ort step may take (default 900)
#   MODELS       space-separated model names, instead of positional arguments
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench_vs_ort.sh: $*" >&2; exit 2; }

JSON=0
CHECK=1
ARGS=()
for a in "$@"; do
  case "$a" in
    --json) JSON=1 ;;
    --no-check) CHECK=0 ;;
    -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $a (see --help)" ;;
    *) ARGS+=("$a") ;;
  esac
done

abspath() {
  local p
  case "$1" in /*) p=$1 ;; *) p=$REPO/$1 ;; esac
  if [ -d "$p" ]; then (cd "$p" && pwd); else echo "$p"; fi
}
BUILD_DIR=$(abspath "${BUILD_DIR:-build}")
MODELS_DIR=$(abspath "${MODELS_DIR:-../shared/models}")
RUNS=${RUNS:-20}
WARMUP=${WARMUP:-5}
THREADS=${THREADS:-2}
ORT_DIR=${ORT_DIR:-$HOME/.cache/ge-ort}
STEP_TIMEOUT=${STEP_TIMEOUT:-900}
if [ ${#ARGS[@]} -gt 0 ]; then
  MODEL_LIST=("${ARGS[@]}")
else
  read -r -a MODEL_LIST <<<"${MODELS:-resnet18 mobilenet_v2 squeezenet1_1 bert_encoder small_cnn}"
fi
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$RUNS'"
[[ "$WARMUP" =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer, got '$WARMUP'"
[[ "$THREADS" =~ ^[1-9][0-9]*$ ]] || die "THREADS must be a positive integer, got '$THREADS'"
[[ "$STEP_TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "STEP_TIMEOUT must be a positive integer, got '$STEP_TIMEOUT'"

# ---- preflight: everything missing is fatal, one line each -----------------------------------
GE_ATC=$BUILD_DIR/apps/ge-atc
GE_RUN=$BUILD_DIR/apps/ge-run
[ -x "$GE_ATC" ] || die "missing $GE_ATC (build it: ninja -C $BUILD_DIR ge-atc ge-run, or set BUILD_DIR)"
[ -x "$GE_RUN" ] || die "missing $GE_RUN (build it: ninja -C $BUILD_DIR ge-atc ge-run, or set BUILD_DIR)"
command -v node >/dev/null || die "missing node (Node.js 18+ is needed for the onnxruntime baseline)"
command -v timeout >/dev/null || die "missing timeout (coreutils)"
[ -d "$MODELS_DIR" ] || die "missing MODELS_DIR $MODELS_DIR (set MODELS_DIR)"
BENCH_ORT=$REPO/scripts/bench_ort.js
[ -f "$BENCH_ORT" ] || die "missing $BENCH_ORT"
for m in "${MODEL_LIST[@]}"; do
  [ -f "$MODELS_DIR/$m.onnx" ] || die "missing model $MODELS_DIR/$m.onnx"
  [ -f "$MODELS_DIR/$m.input.npy" ] || die "missing input $MODELS_DIR/$m.input.npy"
  if [ "$CHECK" = 1 ]; then
    [ -f "$MODELS_DIR/$m.output.npy" ] || die "missing golden $MODELS_DIR/$m.output.npy (or pass --no-check)"
  fi
done

# ---- onnxruntime-node: install once into ORT_DIR, prove the CPU binding loads ----------------
ort_loads() {
  ls "$ORT_DIR"/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/onnxruntime_binding.node >/dev/null 2>&1 &&
    (cd "$ORT_DIR" && node -e "const o=require('onnxruntime-node'); o.InferenceSession; process.stdout.write(o.env.versions.node)") 2>/dev/null
}
if ! ORT_VERSION=$(ort_loads); then
  command -v npm >/dev/null || die "missing npm (needed once to install onnxruntime-node into $ORT_DIR)"
  echo "installing onnxruntime-node into $ORT_DIR (npm install --ignore-scripts) ..." >&2
  mkdir -p "$ORT_DIR" || die "cannot create ORT_DIR $ORT_DIR"
  [ -f "$ORT_DIR/package.json" ] || echo '{"name":"ge-ort","private":true}' >"$ORT_DIR/package.json"
  (cd "$ORT_DIR" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error onnxruntime-node >&2) ||
    die "npm install --ignore-scripts onnxruntime-node failed in $ORT_DIR"
  ls "$ORT_DIR"/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/onnxruntime_binding.node >/dev/null 2>&1 ||
    die "onnxruntime-node installed but its native binding bin/napi-v*/linux/x64/onnxruntime_binding.node is missing"
  ORT_VERSION=$(ort_loads) || die "onnxruntime-node native binding in $ORT_DIR does not load: $(cd "$ORT_DIR" && node -e "require('onnxruntime-node')" 2>&1 | grep -m1 -i error)"
fi

# ---- helpers ----------------------------------------------------------------------------------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench_vs_ort.XXXXXX") || die "cannot create a temp dir"
trap 'rm -rf "$TMP"' EXIT

# jfield FILE EXPR: evaluate a JS expression over the parsed JSON `j` in FILE (the last line that
# starts with '{' or the whole file); prints nothing when the file has no JSON or EXPR is undefined.
jfield() {
  node -e '
    const fs = require("fs"); const txt = fs.readFileSync(process.argv[1], "utf8");
    let j; try { j = JSON.parse(txt); } catch (e) {
      const l = txt.split("\n").filter((s) => s.startsWith("{")).pop(); try { j = JSON.parse(l); } catch (e2) { process.exit(0); } }
    let v; try { v = eval(process.argv[2]); } catch (e) { process.exit(0); }
    if (v !== undefined && v !== null) process.stdout.write(typeof v === "number" ? v.toFixed(3) : String(v));
  ' "$1" "$2" 2>/dev/null
}
# errline TOOL LOG RC: "TOOL: <last non-empty line of LOG>", flattened and shortened, for the note
errline() {
  local l
  l=$(grep -v '^[[:space:]]*$' "$2" 2>/dev/null | tail -n 1 | tr -s '\t ' ' ')
  [ -n "$l" ] || l="exit code $3, no message"
  [ "$3" = 124 ] && l="timed out after ${STEP_TIMEOUT}s"
  case "$l" in "$1:"*) ;; *) l="$1: $l" ;; esac
  echo "${l:0:160}"
}
jstr() { node -e 'process.stdout.write(JSON.stringify(process.argv[1]))' "$1"; }
jnum() { if [ -n "$1" ]; then echo "$1"; else echo null; fi; }

# ---- run ----------------------------------------------------------------------------------------
echo "# ge: $GE_RUN --mode v2 (OMP_NUM_THREADS=$THREADS); ort: onnxruntime-node $ORT_VERSION CPU EP," \
     "intraOpNumThreads=$THREADS interOpNumThreads=1 sequential, graphOptimizationLevel=all"
echo "# runs=$RUNS warmup=$WARMUP per engine, ge then ort per model; nproc=$(nproc);" \
     "loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
# A loaded machine slows both engines unevenly (ge's thread hand-offs suffer most): say so up front.
if awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
  echo "# WARNING: 1-min load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores: other processes compete for the CPU, numbers will be noisy" >&2
fi
ROWS=()
JSONL=()
n_err=0
for m in "${MODEL_LIST[@]}"; do
  onnx=$MODELS_DIR/$m.onnx in=$MODELS_DIR/$m.input.npy gold=$MODELS_DIR/$m.output.npy
  ge_p50="" ge_p90="" ge_chk="" ge_err="" ort_p50="" ort_p90="" ort_chk="" ort_err=""

  # ge: convert, then run
  timeout "$STEP_TIMEOUT" "$GE_ATC" --model "$onnx" --framework 5 --output "$TMP/$m" >"$TMP/$m.atc.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || [ ! -f "$TMP/$m.om" ]; then
    ge_err=$(errline ge-atc "$TMP/$m.atc.log" $rc)
  else
    cmp_args=()
    [ "$CHECK" = 1 ] && cmp_args=(--compare "$gold")
    OMP_NUM_THREADS=$THREADS timeout "$STEP_TIMEOUT" "$GE_RUN" --model "$TMP/$m.om" --mode v2 --input "$in" \
      --loop "$RUNS" --warmup "$WARMUP" --json "${cmp_args[@]}" >"$TMP/$m.ge.json" 2>"$TMP/$m.ge.err"
    rc=$?
    ge_p50=$(jfield "$TMP/$m.ge.json" 'j.latency_ms.p50')
    ge_p90=$(jfield "$TMP/$m.ge.json" 'j.latency_ms.p90')
    ge_chk=$(jfield "$TMP/$m.ge.json" 'j.compare')
    # exit 1 with a parsed JSON summary and compare FAIL is a wrong answer, not a failed run
    if [ -z "$ge_p50" ] || { [ $rc -ne 0 ] && [ "$ge_chk" != FAIL ]; }; then
      ge_err=$(errline ge-run "$TMP/$m.ge.err" $rc)
      ge_p50="" ge_p90="" ge_chk=""
    elif [ "$ge_chk" = FAIL ]; then
      ge_err="ge output mismatch: $(jfield "$TMP/$m.ge.json" 'j.outputs.filter((o) => !o.pass).map((o) => o.name + ": " + o.reason).join("; ")')"
    fi
  fi

  # ort on the same .onnx
  gold_args=()
  [ "$CHECK" = 1 ] && gold_args=(--golden "$gold")
  ORT_DIR=$ORT_DIR timeout "$STEP_TIMEOUT" node "$BENCH_ORT" --model "$onnx" --input "$in" "${gold_args[@]}" \
    --runs "$RUNS" --warmup "$WARMUP" --threads "$THREADS" --ort-dir "$ORT_DIR" >"$TMP/$m.ort.json" 2>"$TMP/$m.ort.err"
  rc=$?
  ort_p50=$(jfield "$TMP/$m.ort.json" 'j.latency_ms.p50')
  ort_p90=$(jfield "$TMP/$m.ort.json" 'j.latency_ms.p90')
  ort_chk=$(jfield "$TMP/$m.ort.json" 'j.compare')
  if [ $rc -ne 0 ] || [ -z "$ort_p50" ]; then
    ort_err=$(errline ort "$TMP/$m.ort.err" $rc)
    ort_p50="" ort_p90="" ort_chk=""
  elif [ "$ort_chk" = FAIL ]; then
    ort_err="ort output mismatch: $(jfield "$TMP/$m.ort.json" 'j.golden.reason')"
  fi

  ratio=""
  if [ -n "$ge_p50" ] && [ -n "$ort_p50" ]; then
    ratio=$(awk -v g="$ge_p50" -v o="$ort_p50" 'BEGIN { if (o > 0) printf "%.2f", g / o }')
  fi
  note=$(printf '%s' "$ge_err${ge_err:+${ort_err:+; }}$ort_err")
  [ -n "$note" ] && n_err=$((n_err + 1))
  if [ "$CHECK" = 1 ]; then chk="${ge_chk:--}/${ort_chk:--}"; else chk="-"; fi
  ROWS+=("$(printf '%-16s %10s %10s %7s %9s %10s %10s  %s' "$m" "${ge_p50:--}" "${ort_p50:--}" "${ratio:--}" \
    "$chk" "${ge_p90:--}" "${ort_p90:--}" "$note")")
  JSONL+=("{\"model\":$(jstr "$m"),\"ge_p50_ms\":$(jnum "$ge_p50"),\"ge_p90_ms\":$(jnum "$ge_p90"),\"ort_p50_ms\":$(jnum "$ort_p50"),\"ort_p90_ms\":$(jnum "$ort_p90"),\"ratio\":$(jnum "$ratio"),\"ge_golden\":$(jstr "${ge_chk:-}"),\"ort_golden\":$(jstr "${ort_chk:-}"),\"runs\":$RUNS,\"warmup\":$WARMUP,\"threads\":$THREADS,\"ort_version\":$(jstr "$ORT_VERSION"),\"error\":$(jstr "$note")}")
  # print rows as they finish so a long run shows progress
  [ ${#ROWS[@]} -eq 1 ] && printf '%-16s %10s %10s %7s %9s %10s %10s  %s\n' model ge_p50_ms ort_p50_ms ratio "golden" ge_p90_ms ort_p90_ms note
  echo "${ROWS[-1]}"
done
if [ "$JSON" = 1 ]; then
  for l in "${JSONL[@]}"; do echo "$l"; done
fi
echo "# ratio = ge_p50 / ort_p50 (< 1: ge faster); golden = ge/ort output vs MODEL.output.npy; loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$n_err" -ne 0 ]; then
  echo "# $n_err of ${#MODEL_LIST[@]} models had errors or wrong outputs (see note)"
  exit 1
fi
exit 0
