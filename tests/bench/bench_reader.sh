#!/usr/bin/env bash
# Reader/writer benchmark: shardscope-opt against MLIR's own mlir-opt-16 on one
# large generated module (tests/bench/gen_module.py), in the same run.
#
#   bash tests/bench/bench_reader.sh [OPS]          # default 100000 ops (~22 MB)
#
# Environment: SHARDSCOPE_OPT (default build/bin/shardscope-opt),
# MLIR_OPT (default mlir-opt-16), REPEAT (runs per tool, best time kept; 3).
# Prints wall time and peak RSS (from /usr/bin/time -v) of
#   shardscope-opt FILE -o /dev/null
#   mlir-opt-16 --allow-unregistered-dialect FILE -o /dev/null
# and the ratios shardscope/mlir-opt. Exits non-zero if either tool fails.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OPS="${1:-100000}"
SS_OPT="${SHARDSCOPE_OPT:-$ROOT/build/bin/shardscope-opt}"
MLIR_OPT="${MLIR_OPT:-mlir-opt-16}"
REPEAT="${REPEAT:-3}"

[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
command -v "$MLIR_OPT" >/dev/null || { echo "bench: $MLIR_OPT missing (apt-get install mlir-16-tools)" >&2; exit 2; }
[[ -x "$SS_OPT" ]] || { echo "bench: $SS_OPT not built (bash scripts/run-tests.sh builds it)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
file="$tmp/bench_${OPS}.mlir"
python3 "$ROOT/tests/bench/gen_module.py" -n "$OPS" -o "$file"
size=$(stat -c %s "$file")
printf 'module: %d ops, %.1f MB (%s)\n' "$OPS" "$(awk "BEGIN { print $size / 1000000 }")" "$file"

# measure NAME CMD...: best wall seconds and peak RSS (kB) over REPEAT runs,
# stored in $best_s and $best_kb.
measure() {
  local name=$1; shift
  best_s="" best_kb=""
  for ((r = 1; r <= REPEAT; r++)); do
    if ! /usr/bin/time -v -o "$tmp/time.txt" "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"; then
      echo "bench: $name failed:" >&2
      tail -5 "$tmp/err.txt" >&2
      tail -3 "$tmp/time.txt" >&2
      return 1
    fi
    local wall kb
    wall=$(sed -nE 's/.*Elapsed \(wall clock\) time.*: (.*)$/\1/p' "$tmp/time.txt" |
           awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    kb=$(sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+).*/\1/p' "$tmp/time.txt")
    if [[ -z "$best_s" ]] || awk "BEGIN { exit !($wall < $best_s) }"; then best_s=$wall; fi
    if [[ -z "$best_kb" ]] || (( kb < best_kb )); then best_kb=$kb; fi
  done
}

# calc EXPR: floating-point arithmetic through awk.
calc() { awk "BEGIN { print $* }"; }

ss_ok=1 ml_ok=1
measure shardscope-opt "$SS_OPT" "$file" -o /dev/null || ss_ok=0
ss_s=$best_s ss_kb=$best_kb
measure mlir-opt "$MLIR_OPT" --allow-unregistered-dialect "$file" -o /dev/null || ml_ok=0
ml_s=$best_s ml_kb=$best_kb

echo
printf '%-16s %10s %14s\n' tool "time (s)" "peak RSS (MB)"
if (( ss_ok )); then printf '%-16s %10.2f %14.1f\n' shardscope-opt "$ss_s" "$(calc "$ss_kb / 1024")"; fi
if (( ml_ok )); then printf '%-16s %10.2f %14.1f\n' "$MLIR_OPT" "$ml_s" "$(calc "$ml_kb / 1024")"; fi
if (( ss_ok && ml_ok )); then
  printf 'ratio shardscope-opt / %s: time %.2fx, peak RSS %.2fx\n' "$MLIR_OPT" \
    "$(calc "$ss_s / ($ml_s > 0.01 ? $ml_s : 0.01)")" "$(calc "$ss_kb / $ml_kb")"
  printf 'throughput: shardscope-opt %.1f MB/s, %s %.1f MB/s\n' \
    "$(calc "$size / 1000000 / ($ss_s > 0.01 ? $ss_s : 0.01)")" "$MLIR_OPT" \
    "$(calc "$size / 1000000 / ($ml_s > 0.01 ? $ml_s : 0.01)")"
fi
(( ss_ok && ml_ok ))
