#!/usr/bin/env bash
# Propagation benchmark: `shardscope-opt -sdy-propagation-pipeline` on
# generated transformer-like modules (tests/bench/gen_transformer.py), beside
# shardscope-opt and mlir-opt-16 merely reading and printing the same
# generic-form file, in the same run.
#
#   bash tests/bench/bench_propagation.sh [OPS...]   # default 10000 100000
#   bash tests/bench/bench_propagation.sh 100000 1000000
#
# Environment: SHARDSCOPE_OPT (default build/bin/shardscope-opt), MLIR_OPT
# (default mlir-opt-16), REPEAT (runs per measurement, medians; default 3),
# BENCH_CHECK (`wall`, the default, or `cpu`: which time the targets are
# checked on; on a machine shared with other work, wall time measures the
# load more than the tool, and CPU time is the comparable figure).
# Each size gets a row: read+print and pipeline (median wall s, CPU s = user
# + system, peak MB), mlir-opt-16's read+print, and the ratios to it (wall,
# then CPU). Then the growth of each time, wall and CPU, from one size to
# the next.
# Targets checked:
#   issue 3:  100,000 ops through the pipeline in under 2 s and 1 GB;
#   issue 17: about 1,000,000 ops read+print in under 2.5 s, the pipeline in
#             under 5 s, peak memory under 1.5 GB, and from 100,000 to
#             1,000,000 ops the pipeline's time grows under 11x.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SS_OPT="${SHARDSCOPE_OPT:-$ROOT/build/bin/shardscope-opt}"
MLIR_OPT="${MLIR_OPT:-mlir-opt-16}"
# shellcheck source=bench_lib.sh
source "$ROOT/tests/bench/bench_lib.sh"
SIZES=("$@")
((${#SIZES[@]})) || SIZES=(10000 100000)

[[ -x "$SS_OPT" ]] || { echo "bench: $SS_OPT not built" >&2; exit 2; }
have_mlir=1
command -v "$MLIR_OPT" >/dev/null || have_mlir=0
bench_init
BENCH_CHECK="${BENCH_CHECK:-wall}"
[[ "$BENCH_CHECK" == wall || "$BENCH_CHECK" == cpu ]] || { echo "bench: BENCH_CHECK must be wall or cpu" >&2; exit 2; }

# check COND MESSAGE: prints a PASS or FAIL line per target; a FAIL makes
# the script exit non-zero.
ok=1
check() {
  if awk "BEGIN { exit !($1) }"; then
    echo "bench: PASS: $2"
  else
    echo "bench: FAIL: $2"
    ok=0
  fi
}

echo "start: $(load_note); REPEAT=$REPEAT, medians; targets checked on $BENCH_CHECK time"
printf '%-8s %6s | %7s %6s %6s | %7s %6s %6s | %7s %6s %6s | %9s %9s | %9s %9s\n' ops MB \
  "read s" cpu MB "pipe s" cpu MB "mlir s" cpu MB "read/mlir" "pipe/mlir" "cpu r/m" "cpu p/m"
declare -A read_s pipe_s read_cpu pipe_cpu
prev=""
for n in "${SIZES[@]}"; do
  f="$bench_tmp/t_$n.mlir"
  python3 "$ROOT/tests/bench/gen_transformer.py" --ops "$n" -o "$f" 2>"$bench_tmp/gen.txt"
  real_ops=$(sed -nE 's/.* ([0-9]+) ops/\1/p' "$bench_tmp/gen.txt")
  mb=$(awk "BEGIN { printf \"%.1f\", $(stat -c %s "$f") / 1e6 }")
  measure "$SS_OPT" "$f" -o /dev/null || exit 1
  r_s=$med_s r_cpu=$med_cpu r_mb=$med_mb
  measure "$SS_OPT" "$f" -sdy-propagation-pipeline -o /dev/null || exit 1
  p_s=$med_s p_cpu=$med_cpu p_mb=$med_mb
  m_s="n/a" m_cpu="n/a" m_mb="n/a"
  if ((have_mlir)); then
    measure "$MLIR_OPT" --allow-unregistered-dialect "$f" -o /dev/null || exit 1
    m_s=$med_s m_cpu=$med_cpu m_mb=$med_mb
  fi
  rm -f "$f"
  read_s[$n]=$r_s pipe_s[$n]=$p_s read_cpu[$n]=$r_cpu pipe_cpu[$n]=$p_cpu
  printf '%-8s %6s | %7s %6s %6s | %7s %6s %6s | %7s %6s %6s | %8sx %8sx | %8sx %8sx\n' "$real_ops" "$mb" \
    "$r_s" "$r_cpu" "$r_mb" "$p_s" "$p_cpu" "$p_mb" "$m_s" "$m_cpu" "$m_mb" \
    "$(ratio "$r_s" "$m_s")" "$(ratio "$p_s" "$m_s")" "$(ratio "$r_cpu" "$m_cpu")" "$(ratio "$p_cpu" "$m_cpu")"
  # The times the targets are checked on.
  r_t=$r_s p_t=$p_s
  [[ "$BENCH_CHECK" == cpu ]] && r_t=$r_cpu p_t=$p_cpu
  if ((n >= 90000 && n <= 110000)); then
    check "$p_t < 2 && $p_mb < 1024" "100k pipeline ${p_t} s $BENCH_CHECK, ${p_mb} MB (target < 2 s, < 1 GB)"
  fi
  if ((n >= 900000)); then
    check "$r_t < 2.5" "1M read+print ${r_t} s $BENCH_CHECK (target < 2.5 s)"
    check "$p_t < 5" "1M pipeline ${p_t} s $BENCH_CHECK (target < 5 s)"
    check "$p_mb < 1536 && $r_mb < 1536" "1M peak ${p_mb} MB (target < 1.5 GB)"
  fi
  if [[ -n "$prev" ]]; then
    g=$(ratio "$p_s" "${pipe_s[$prev]}")
    g_cpu=$(ratio "$p_cpu" "${pipe_cpu[$prev]}")
    echo "  growth $prev -> $n ops: pipeline ${g}x wall, ${g_cpu}x CPU;" \
      "read+print $(ratio "$r_s" "${read_s[$prev]}")x wall, $(ratio "$r_cpu" "${read_cpu[$prev]}")x CPU"
    [[ "$BENCH_CHECK" == cpu ]] && g=$g_cpu
    if ((n >= 900000 && prev >= 90000 && prev <= 110000)); then
      check "$g < 11" "pipeline growth 100k -> 1M ${g}x (target < 11x)"
    elif ((prev * 10 == n)); then
      check "$g < 12" "pipeline growth ${g}x for 10x the ops (target < 12x)"
    fi
  fi
  prev=$n
done
echo "end: $(load_note)"
if ((ok)); then echo "bench: all targets met ($BENCH_CHECK time)"; else echo "bench: some targets missed ($BENCH_CHECK time)"; fi
((ok))
