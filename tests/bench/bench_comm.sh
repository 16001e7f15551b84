#!/usr/bin/env bash
# Communication benchmark on the generated transformer
# (tests/bench/gen_transformer.py, 100,000 ops by default):
#   1. what `-sdy-insert-explicit-reshards -sdy-reshard-to-collectives` add to
#      `-sdy-propagation-pipeline` (target: under 30%);
#   2. how long `--comm-report` takes on the result (target: under 0.5 s),
#      read from --mlir-timing's "Communication report" line.
#
#   bash tests/bench/bench_comm.sh [OPS]
#
# Environment: SHARDSCOPE_OPT (default build/bin/shardscope-opt), REPEAT
# (runs per measurement, medians; default 3).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OPS="${1:-100000}"
SS_OPT="${SHARDSCOPE_OPT:-$ROOT/build/bin/shardscope-opt}"
# shellcheck source=bench_lib.sh
source "$ROOT/tests/bench/bench_lib.sh"
[[ -x "$SS_OPT" ]] || { echo "bench: $SS_OPT not built" >&2; exit 2; }
bench_init
tmp=$bench_tmp
f="$tmp/t.mlir"
python3 "$ROOT/tests/bench/gen_transformer.py" --ops "$OPS" -o "$f" 2>/dev/null
echo "start: $(load_note); REPEAT=$REPEAT, medians"

measure "$SS_OPT" "$f" -sdy-propagation-pipeline -o /dev/null
pipe=$med_s pipe_cpu=$med_cpu
# The same with the explicit reshards (full version, so that every
# conflicting op gets its reshards) and their collectives, and the report;
# --mlir-timing gives each pass's own share.
steps=(-sdy-propagation-pipeline "-sdy-insert-explicit-reshards=enable-full-version=true" -sdy-reshard-to-collectives)
measure "$SS_OPT" "$f" "${steps[@]}" -o /dev/null
both=$med_s both_cpu=$med_cpu
extra=$(awk "BEGIN { printf \"%.1f\", 100 * ($both - $pipe) / $pipe }")
extra_cpu=$(awk "BEGIN { printf \"%.1f\", 100 * ($both_cpu - $pipe_cpu) / $pipe_cpu }")
"$SS_OPT" "$f" "${steps[@]}" --comm-report="$tmp/report.json" --mlir-timing -o /dev/null 2>"$tmp/timing.txt"
# Top-level lines of the timing report (no indentation before the name).
pass_s() { awk -v name="$1" '$NF == name && $0 ~ "%\\)  " name "$" { print $1 }' "$tmp/timing.txt" | tail -1; }
reshards=$(pass_s sdy-insert-explicit-reshards)
collectives=$(pass_s sdy-reshard-to-collectives)
report=$(awk '/Communication report/ { print $1 }' "$tmp/timing.txt")
count=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['collectives']))" "$tmp/report.json")

printf '%-8s %11s %17s %8s %12s %15s %9s %12s\n' ops "pipeline s" "+reshards+coll s" "added %" "reshards s" "collectives s" "report s" collectives
printf '%-8s %11s %17s %8s %12s %15s %9s %12s\n' "$OPS" "$pipe" "$both" "$extra" "$reshards" "$collectives" "$report" "$count"
echo "CPU (user + system): pipeline $pipe_cpu s, with reshards + collectives $both_cpu s: ${extra_cpu}% added"
echo "end: $(load_note)"
ok=1
awk "BEGIN { exit !($extra < 30) }" || { echo "bench: explicit reshards + collectives add ${extra}% (target < 30%)"; ok=0; }
awk "BEGIN { exit !($report < 0.5) }" || { echo "bench: the report takes ${report} s (target < 0.5 s)"; ok=0; }
((ok)) && echo "bench: targets met"
((ok))
