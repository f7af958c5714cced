#!/usr/bin/env bash
# ge-lint wall time per reference model, and what ge-atc --lint on costs over
# --lint off (median of RUNS alternating runs each). Usage:
#   scripts/bench_lint.sh [MODELS_DIR] [RUNS]     (defaults: ../shared/models, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
MODELS=${1:-../shared/models}
RUNS=${2:-5}
BIN=${BUILD_DIR:-build}/apps
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "ge-lint wall time (median of $RUNS):"
for m in "$MODELS"/*.onnx; do
  for _ in $(seq "$RUNS"); do
    t0=$(now); "$BIN/ge-lint" "$m" > "$TMP/lint.txt" || true; t1=$(now)
    echo "$t1 - $t0" | bc
  done | median | xargs printf "  %-22s %6.3f s  " "$(basename "$m")"
  tail -1 "$TMP/lint.txt" | sed 's/.*: //'
done

echo "ge-atc --lint on vs off (median of $RUNS, alternating):"
for name in ${ATC_MODELS:-resnet18 mobilenet_v2 bert_encoder}; do
  m="$MODELS/$name.onnx"
  : > "$TMP/on"; : > "$TMP/off"
  for _ in $(seq "$RUNS"); do
    for mode in off on; do
      t0=$(now); "$BIN/ge-atc" --model "$m" --framework 5 --output "$TMP/$name" --lint $mode > /dev/null 2>&1; t1=$(now)
      echo "$t1 - $t0" | bc >> "$TMP/$mode"
    done
  done
  on=$(median < "$TMP/on"); off=$(median < "$TMP/off")
  printf "  %-22s off %6.3f s  on %6.3f s  cost %+5.1f%%\n" "$name" "$off" "$on" "$(echo "($on - $off) * 100 / $off" | bc -l)"
done
