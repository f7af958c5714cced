#!/usr/bin/env bash
# bench_compile_scaling.sh: how ge-atc's time and memory grow with graph size and nesting depth.
#
#   scripts/bench_compile_scaling.sh [FAMILY...]
#
# scripts/gen_scaling_models.py writes each model (needs Debian's python3-onnx): chains of Adds,
# wide graphs (64 branches), transformer-like blocks at 1k, 10k, 30k, 100k and 200k nodes, If
# nested 13-20 deep and Loop nested 10-16 deep. ge-atc converts each under /usr/bin/time -v and a
# time cap; the table gives wall seconds, CPU seconds (user + system: what a machine shared with
# other jobs still measures fairly) and peak RSS (MiB). A family stops at its first size
# that fails or passes the cap (bigger ones would too). FAMILY: chain, wide, transformer,
# if_nest, loop_nest (default: all). Output: one Markdown table on stdout.
#
# Environment: BUILD_DIR (default build), CAP (seconds per conversion, default 300), MEM_CAP_MB
# (virtual memory cap per conversion, default 8192), SIZES (default "1000 10000 30000 100000
# 200000"), IF_DEPTHS (default "13 14 15 16 20"), LOOP_DEPTHS (default "10 11 12 16").
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "bench_compile_scaling.sh: $*" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$REPO/$1" ;; esac; }
BUILD_DIR=$(abspath "${BUILD_DIR:-build}")
CAP=${CAP:-300}
MEM_CAP_MB=${MEM_CAP_MB:-8192}
SIZES=${SIZES:-"1000 10000 30000 100000 200000"}
IF_DEPTHS=${IF_DEPTHS:-"13 14 15 16 20"}
LOOP_DEPTHS=${LOOP_DEPTHS:-"10 11 12 16"}
[[ "$CAP" =~ ^[0-9]+$ && "$CAP" -ge 1 ]] || die "CAP must be a positive integer, got '$CAP'"
[[ "$MEM_CAP_MB" =~ ^[0-9]+$ && "$MEM_CAP_MB" -ge 256 ]] || die "MEM_CAP_MB must be an integer >= 256, got '$MEM_CAP_MB'"
ATC=$BUILD_DIR/apps/ge-atc
[ -x "$ATC" ] || die "ge-atc not built in $BUILD_DIR (set BUILD_DIR)"
FAMILIES=("$@")
[ ${#FAMILIES[@]} -gt 0 ] || FAMILIES=(chain wide transformer if_nest loop_nest)
for f in "${FAMILIES[@]}"; do
  case "$f" in chain|wide|transformer|if_nest|loop_nest) ;; *) die "unknown family $f (see --help)" ;; esac
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# convert FAMILY SIZE -> prints "wall seconds|cpu seconds|peak MiB|status"
convert() {
  local model=$TMP/$1_$2
  /usr/bin/python3 "$REPO/scripts/gen_scaling_models.py" "$1" "$2" "$model.onnx" || die "gen_scaling_models.py failed on $1 $2 (python3-onnx?)"
  ( ulimit -v $((MEM_CAP_MB * 1024)); /usr/bin/time -v -o "$model.time" timeout "$CAP" "$ATC" --model "$model.onnx" \
      --framework 5 --output "$model" >"$model.log" 2>&1 )
  local rc=$?
  local secs cpu kb status=ok
  secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$model.time" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }')
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$model.time")
  kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$model.time")
  if [ "$rc" = 124 ]; then status="> ${CAP} s cap"
  elif [ "$rc" != 0 ]; then status="failed ($(grep -m1 -v '^$' "$model.log" | cut -c1-60))"
  fi
  rm -f "$model.onnx" "$model.om"
  echo "$secs|$cpu|$((${kb:-0} / 1024))|$status"
}

echo "| family | size | wall s | cpu s | peak RSS MiB | result |"
echo "|---|---:|---:|---:|---:|---|"
for f in "${FAMILIES[@]}"; do
  case "$f" in if_nest) sizes=$IF_DEPTHS ;; loop_nest) sizes=$LOOP_DEPTHS ;; *) sizes=$SIZES ;; esac
  for n in $sizes; do
    IFS='|' read -r secs cpu mib status <<<"$(convert "$f" "$n")"
    echo "| $f | $n | $secs | $cpu | $mib | $status |"
    [ "$status" = ok ] || break
  done
done
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
