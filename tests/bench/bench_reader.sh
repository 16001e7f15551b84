#!/usr/bin/env bash
# Reader/writer benchmark: shardscope-opt against MLIR's own mlir-opt-16 on
# large generated modules (tests/bench/gen_module.py), in the same run.
#
#   bash tests/bench/bench_reader.sh [OPS...]     # default 100000 ops (~22 MB)
#   bash tests/bench/bench_reader.sh 100000 1000000
#
# Environment: SHARDSCOPE_OPT (default build/bin/shardscope-opt),
# MLIR_OPT (default mlir-opt-16), REPEAT (runs per tool and size, medians
# reported; 3), BENCH_CHECK (`wall`, the default, or `cpu`: which time the
# target is checked on; on a machine shared with other work CPU time is the
# comparable figure).
# For each size it prints the median wall time, CPU time (user + system) and
# peak RSS of
#   shardscope-opt FILE -o /dev/null
#   mlir-opt-16 --allow-unregistered-dialect FILE -o /dev/null
# and the ratios shardscope/mlir-opt. Target (issue 17): at 100,000 ops
# shardscope-opt takes at most a quarter of mlir-opt-16's time (4x faster).
# Prints a PASS or FAIL line for the target; exits non-zero if a tool fails
# or the target is missed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SS_OPT="${SHARDSCOPE_OPT:-$ROOT/build/bin/shardscope-opt}"
MLIR_OPT="${MLIR_OPT:-mlir-opt-16}"
# shellcheck source=bench_lib.sh
source "$ROOT/tests/bench/bench_lib.sh"
SIZES=("$@")
((${#SIZES[@]})) || SIZES=(100000)

command -v "$MLIR_OPT" >/dev/null || { echo "bench: $MLIR_OPT missing (apt-get install mlir-16-tools)" >&2; exit 2; }
[[ -x "$SS_OPT" ]] || { echo "bench: $SS_OPT not built (bash scripts/run-tests.sh builds it)" >&2; exit 2; }
bench_init
BENCH_CHECK="${BENCH_CHECK:-wall}"
[[ "$BENCH_CHECK" == wall || "$BENCH_CHECK" == cpu ]] || { echo "bench: BENCH_CHECK must be wall or cpu" >&2; exit 2; }

echo "start: $(load_note); REPEAT=$REPEAT, medians; target checked on $BENCH_CHECK time"
printf '%-8s %6s | %8s %7s %7s | %8s %7s %7s | %11s %10s %8s\n' ops MB \
  "ss s" "ss cpu" "ss MB" "mlir s" "mlir cpu" "mlir MB" "time ratio" "cpu ratio" "MB ratio"
ok=1
for n in "${SIZES[@]}"; do
  file="$bench_tmp/bench_$n.mlir"
  python3 "$ROOT/tests/bench/gen_module.py" -n "$n" -o "$file"
  mb=$(awk "BEGIN { printf \"%.1f\", $(stat -c %s "$file") / 1e6 }")
  measure "$SS_OPT" "$file" -o /dev/null || exit 1
  ss_s=$med_s ss_cpu=$med_cpu ss_mb=$med_mb
  measure "$MLIR_OPT" --allow-unregistered-dialect "$file" -o /dev/null || exit 1
  ml_s=$med_s ml_cpu=$med_cpu ml_mb=$med_mb
  t_ratio=$(ratio "$ss_s" "$ml_s")
  printf '%-8s %6s | %8s %7s %7s | %8s %7s %7s | %11s %10s %8s\n' "$n" "$mb" "$ss_s" "$ss_cpu" "$ss_mb" \
    "$ml_s" "$ml_cpu" "$ml_mb" "${t_ratio}x" "$(ratio "$ss_cpu" "$ml_cpu")x" "$(ratio "$ss_mb" "$ml_mb")x"
  rm -f "$file"
  if [[ "$n" == 100000 ]]; then
    c_ratio=$t_ratio
    [[ "$BENCH_CHECK" == cpu ]] && c_ratio=$(ratio "$ss_cpu" "$ml_cpu")
    if awk "BEGIN { exit !($c_ratio <= 0.25) }"; then
      echo "bench: PASS: at 100,000 ops shardscope-opt takes ${c_ratio}x mlir-opt's $BENCH_CHECK time (target <= 0.25x)"
    else
      echo "bench: FAIL: at 100,000 ops shardscope-opt takes ${c_ratio}x mlir-opt's $BENCH_CHECK time (target <= 0.25x)"
      ok=0
    fi
  fi
done
echo "end: $(load_note)"
((ok))
