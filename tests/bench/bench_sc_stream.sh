#!/usr/bin/env bash
# Streaming benchmark: `shardscope-sc analyze --stream` on a large sorted ids
# CSV (tests/bench/gen_ids_csv.cpp), against `wc -l` reading the same file
# in the same run (the cost of just reading it), plus the in-memory analysis
# for contrast when the file is small enough.
#
#   bash tests/bench/bench_sc_stream.sh [IDS]   # default 100000000 (~1.8 GB)
#
# The target (issue 16): 1e9 ids (~18 GB of CSV) in under 10 s in constant
# memory. Environment: BENCH_DIR (default /tmp/shardscope-bench; the CSV is
# generated there once and kept), SHARDSCOPE_SC, GEN_IDS_CSV, REPEAT (2).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
IDS="${1:-100000000}"
SC="${SHARDSCOPE_SC:-$ROOT/build/bin/shardscope-sc}"
GEN="${GEN_IDS_CSV:-$ROOT/build/bin/gen_ids_csv}"
DIR="${BENCH_DIR:-/tmp/shardscope-bench}"
REPEAT="${REPEAT:-2}"

[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
for tool in "$SC" "$GEN"; do
  [[ -x "$tool" ]] || { echo "bench: $tool not built (cmake --build build --target shardscope-sc gen_ids_csv)" >&2; exit 2; }
done
mkdir -p "$DIR"
csv="$DIR/ids_${IDS}.csv"
job="$DIR/job_stream.json"
# 4 features of 4 ids per sample on 4 tables of 2M rows, 1 device x 4
# SparseCores; limits high, so nothing is dropped and only the counts matter.
cat >"$job" <<JSON
{"devices": 1, "sparse_cores_per_device": 4,
 "tables": [
  {"name": "t0", "vocab_size": 2000000, "width": 8, "max_ids_per_partition": 268435456, "max_unique_ids_per_partition": 268435456},
  {"name": "t1", "vocab_size": 2000000, "width": 16, "max_ids_per_partition": 268435456, "max_unique_ids_per_partition": 268435456},
  {"name": "t2", "vocab_size": 2000000, "width": 32, "max_ids_per_partition": 268435456, "max_unique_ids_per_partition": 268435456},
  {"name": "t3", "vocab_size": 2000000, "width": 64, "max_ids_per_partition": 268435456, "max_unique_ids_per_partition": 268435456}],
 "features": [{"name": "f0", "table": "t0"}, {"name": "f1", "table": "t1"},
              {"name": "f2", "table": "t2"}, {"name": "f3", "table": "t3"}]}
JSON
if [[ ! -s "$csv" ]]; then
  echo "generating $IDS ids into $csv ..."
  "$GEN" "$IDS" 4 4 2000000 "$csv.tmp" && mv "$csv.tmp" "$csv"
fi
size=$(stat -c %s "$csv")
printf 'ids CSV: %d ids, %.2f GB (%s); machine load %s\n' "$IDS" "$(awk "BEGIN { print $size / 1e9 }")" \
  "$csv" "$(cut -d' ' -f1-3 /proc/loadavg)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# measure NAME CMD...: best wall seconds, its user+sys seconds and the peak
# RSS (kB) over REPEAT runs, in $best_s, $best_cpu, $best_kb. The analysis
# exits 1 when the (huge) limits do not fit SPMEM; only a crash counts.
measure() {
  local name=$1; shift
  best_s="" best_cpu="" best_kb=""
  for ((r = 1; r <= REPEAT; r++)); do
    local status=0
    /usr/bin/time -v -o "$tmp/time.txt" "$@" >"$tmp/out.txt" 2>"$tmp/err.txt" || status=$?
    if (( status > 1 )); then
      echo "bench: $name failed ($status):" >&2
      tail -5 "$tmp/err.txt" >&2
      return 1
    fi
    local wall cpu kb
    wall=$(sed -nE 's/.*Elapsed \(wall clock\) time.*: (.*)$/\1/p' "$tmp/time.txt" |
           awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$tmp/time.txt")
    kb=$(sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+).*/\1/p' "$tmp/time.txt")
    if [[ -z "$best_s" ]] || awk "BEGIN { exit !($wall < $best_s) }"; then best_s=$wall best_cpu=$cpu; fi
    if [[ -z "$best_kb" ]] || (( kb < best_kb )); then best_kb=$kb; fi
  done
}
calc() { awk "BEGIN { print $* }"; }
row() { printf '%-28s %9.2f %9.2f %12.1f %12.1f\n' "$1" "$2" "$3" "$(calc "$4 / 1024")" "$(calc "$IDS / ($2 > 0.01 ? $2 : 0.01) / 1e6")"; }

echo
printf '%-28s %9s %9s %12s %12s\n' run "wall (s)" "cpu (s)" "peak RSS MB" "Mids/s wall"
measure "wc -l" wc -l "$csv"
wc_s=$best_s
row "wc -l (reading only)" "$best_s" "$best_cpu" "$best_kb"
measure "stream" "$SC" analyze "$job" --csv "$csv" --stream --json
st_s=$best_s st_cpu=$best_cpu
row "shardscope-sc --stream" "$best_s" "$best_cpu" "$best_kb"
# The whole-file path keeps every id (4 bytes each, plus sample tables).
if (( size < 3000000000 )); then
  measure "in-memory" "$SC" analyze "$job" --csv "$csv" --json
  row "shardscope-sc (in memory)" "$best_s" "$best_cpu" "$best_kb"
fi
printf '\nstream / wc -l: %.1fx wall; cpu per id %.1f ns; at this rate 1e9 ids take %.0f s of cpu\n' \
  "$(calc "$st_s / ($wc_s > 0.01 ? $wc_s : 0.01)")" "$(calc "$st_cpu / $IDS * 1e9")" "$(calc "$st_cpu / $IDS * 1e9")"
