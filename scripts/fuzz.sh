#!/usr/bin/env bash
# Fuzzes one target with libFuzzer (docs/hardening.md).
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]   TARGET: om | onnx | tf | npy | fusion_switch |
#                                                        precision | ge_text | aipp | dym_shape
#   scripts/fuzz.sh TARGET minimize CRASH_FILE [OUT]      shrinks a crashing input (default OUT: CRASH_FILE.min)
#   scripts/fuzz.sh TARGET triage [DIR]                   groups the findings by error and top ge frames
#
# Installs clang if missing, builds ${BUILD_DIR:-build-fuzz} (clang, ASan+UBSan, coverage on every
# library), writes the seeds, runs ONE fuzzing process for SECONDS and prints how many inputs ran.
# Crashing inputs (and ooms, timeouts, leaks) are saved to ${FINDINGS_DIR:-BUILD_DIR/findings}/TARGET/.
# The working corpus grows in BUILD_DIR/corpus/TARGET; tests/fuzz/corpus/TARGET and the seeds are read only.
# KEEP_GOING=1 keeps fuzzing after a crash (libFuzzer's -fork=1: still one process at a time).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS="om onnx tf npy fusion_switch precision ge_text aipp dym_shape"
usage() { echo "usage: scripts/fuzz.sh ${TARGETS// /|} SECONDS [libFuzzer flags] | TARGET minimize FILE [OUT]" >&2; exit 2; }
[ $# -ge 2 ] || usage
TARGET=$1; shift
[[ " $TARGETS " == *" $TARGET "* ]] || usage
BUILD_DIR=${BUILD_DIR:-build-fuzz}
FINDINGS=${FINDINGS_DIR:-$BUILD_DIR/findings}/$TARGET
CORPUS=$BUILD_DIR/corpus/$TARGET
SEEDS=$BUILD_DIR/seeds
MODELS_DIR=${GE_MODELS_DIR:-../shared/models}
FUZZER=$BUILD_DIR/tests/fuzz/fuzz_$TARGET

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! command -v clang++ >/dev/null; then
  echo "fuzz: installing clang (libFuzzer comes with it)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang
fi
scripts/setup.sh >/dev/null

# The build: clang with coverage and ASan+UBSan on every library; only the
# fuzz targets, the seed writer and ge-atc are built.
LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  mkdir -p "$BUILD_DIR"
  # -O1 and line tables: fast enough to fuzz, quick to build, and stacks with file:line.
  CXX=clang++ cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DGE_FUZZ=ON "${LAUNCHER[@]}" \
    > "$BUILD_DIR/cmake.log" 2>&1 || { cat "$BUILD_DIR/cmake.log"; exit 1; }
fi
ninja -C "$BUILD_DIR" -j"${JOBS:-$(nproc)}" "fuzz_$TARGET" fuzz_make_seeds ge-atc

# ASan's default symbolizer lookup; a crash report with file:line is what makes it a finding.
command -v llvm-symbolizer >/dev/null && export ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer)
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One core: oneDNN's OpenMP pool would otherwise take the machine.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

if [ "$1" = triage ]; then
  # One line per distinct failure: how many inputs, the error, the first
  # frames in our code, and the smallest input that shows it.
  dir=${2:-$FINDINGS}
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    out=$("$FUZZER" -rss_limit_mb=4096 -malloc_limit_mb=2048 -timeout=10 "$f" 2>&1 || true)
    kind=$(grep -m1 -oE 'ERROR: [A-Za-z]+: [a-z-]+( on [a-z]+)?|runtime error: [^0-9]+|fuzz invariant broken: [^:]+|terminate called after throwing an instance of .[a-z_:]*.|ERROR: libFuzzer: [a-z-]+' <<<"$out" | head -1)
    top=$(grep -E '^ +#[0-9]+ .* /work/.*/(libge|parsers|hal|base|tests/fuzz)/' <<<"$out" | grep -v LLVMFuzzerTestOneInput |
          head -3 | sed -E 's|.* in ([^(]*).* /work/[^ ]*/([a-z_]+/[^ ]*)$|\1 \2|; s|ge::||g' | paste -sd';')
    printf '%s\t%s\t%s\t%s\n' "$(stat -c %s "$f")" "$kind" "$top" "$f"
  done | sort -t$'\t' -k2,3 -k1,1n | awk -F'\t' '{k=$2 FS $3} !(k in n){first[k]=$4; order[++m]=k} {n[k]++}
    END {for (i=1;i<=m;i++) {k=order[i]; split(k,a,FS); printf "%4d x %s\n       at %s\n       e.g. %s\n", n[k], a[1], a[2], first[k]}}'
  exit 0
fi
if [ "$1" = minimize ]; then
  [ $# -ge 2 ] || usage
  out=${3:-$2.min}
  "$FUZZER" -minimize_crash=1 -max_total_time="${MINIMIZE_SECONDS:-120}" -runs=100000 -timeout=10 \
    -rss_limit_mb=4096 -malloc_limit_mb=2048 -exact_artifact_path="$out" "$2" 2>&1 | tail -5
  echo "fuzz: minimised $2 -> $out ($(stat -c %s "$out") bytes)"
  exit 0
fi
SECONDS_TO_RUN=$1; shift

# Seeds: generated models and arrays, the repository's example, the small
# reference models (not the large ones), and .om compiled from them by ge-atc.
# Written again when the seed writer was rebuilt (new or changed seeds).
if [ ! "$SEEDS/.done" -nt "$BUILD_DIR/tests/fuzz/fuzz_make_seeds" ]; then
  rm -rf "$SEEDS"
  "$BUILD_DIR/tests/fuzz/fuzz_make_seeds" "$SEEDS" 2>"$BUILD_DIR/seeds.log"
  cp examples/*.onnx "$SEEDS/onnx/"; cp examples/*.npy "$SEEDS/npy/"
  sources=(examples/tiny_cnn.onnx)
  if [ -d "$MODELS_DIR" ]; then
    for m in small_cnn add_chain_1000; do
      [ -f "$MODELS_DIR/$m.onnx" ] && cp "$MODELS_DIR/$m.onnx" "$SEEDS/onnx/" && sources+=("$MODELS_DIR/$m.onnx")
    done
    for m in tf_cnn tf_mlp; do
      [ -f "$MODELS_DIR/$m.pb" ] && cp "$MODELS_DIR/$m.pb" "$SEEDS/tf/" && sources+=("$MODELS_DIR/$m.pb")
    done
    for m in small_cnn tf_cnn tf_mlp add_chain_1000; do
      cp "$MODELS_DIR/$m".*.npy "$SEEDS/npy/" 2>/dev/null || true
    done
  else
    echo "fuzz: $MODELS_DIR absent: seeding without the reference models"
  fi
  for src in "${sources[@]}"; do
    fw=5; [[ $src == *.pb ]] && fw=3
    name=$(basename "${src%.*}")
    "$BUILD_DIR/apps/ge-atc" --model "$src" --framework $fw --output "$SEEDS/om/$name" --log error >/dev/null 2>&1 ||
      echo "fuzz: ge-atc could not compile $src (no .om seed of it)"
  done
  touch "$SEEDS/.done"
fi

# Most text targets have no generated seeds: an empty directory stands in.
mkdir -p "$CORPUS" "$FINDINGS" "$SEEDS/$TARGET"
declare -A MAX_LEN=([om]=262144 [onnx]=131072 [tf]=131072 [npy]=16384 [fusion_switch]=16384 [precision]=16384
                    [ge_text]=32768 [aipp]=16384 [dym_shape]=1024)
flags=(-max_total_time="$SECONDS_TO_RUN" -rss_limit_mb=4096 -malloc_limit_mb=2048 -timeout=10
       -max_len="${MAX_LEN[$TARGET]}" -artifact_prefix="$FINDINGS/" -print_final_stats=1)
[ -f "tests/fuzz/$TARGET.dict" ] && flags+=(-dict="tests/fuzz/$TARGET.dict")
[ "${KEEP_GOING:-0}" = 1 ] && flags+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
before=$(ls "$FINDINGS" | wc -l)
log=$BUILD_DIR/fuzz-$TARGET.log
echo "fuzz: $FUZZER for ${SECONDS_TO_RUN}s, log $log"
start=$(date +%s)
set +e
"$FUZZER" "${flags[@]}" "$@" "$CORPUS" "tests/fuzz/corpus/$TARGET" "$SEEDS/$TARGET" > "$log" 2>&1
rc=$?
set -e
elapsed=$(( $(date +%s) - start ))
# Executions: libFuzzer's final stats; in fork mode the parent's last status
# line (the children's stats stay in their own logs).
if [ "${KEEP_GOING:-0}" = 1 ]; then
  execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
else
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
fi
execs=${execs:-0}
echo "fuzz: $TARGET: $execs executions in ${elapsed}s ($(( execs / (elapsed > 0 ? elapsed : 1) ))/s), corpus $(ls "$CORPUS" | wc -l) inputs"
new=$(( $(ls "$FINDINGS" | wc -l) - before ))
if [ "$new" -gt 0 ] || [ $rc -ne 0 ]; then
  grep -m3 -E 'ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error:|SUMMARY:' "$log" || true
  echo "fuzz: $new new crashing input(s) in $FINDINGS (libFuzzer exit $rc); minimise one with:"
  echo "  scripts/fuzz.sh $TARGET minimize $FINDINGS/<file> /work/fuzz-findings/$TARGET/<name>"
  exit 1
fi
echo "fuzz: no crash"
