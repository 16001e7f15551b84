#!/usr/bin/env bash
# Dense-literal benchmark: one constant whose `dense<[...]>` line is tens of
# MB (a model's weights written inline), read and printed by shardscope-opt,
# and by mlir-opt-16 for scale (as an `arith.constant`, which it knows).
#
#   bash tests/bench/bench_literal.sh [ELEMENTS...]   # default 2000000 f32 (~25 MB)
#
# Environment: SHARDSCOPE_OPT (default build/bin/shardscope-opt), MLIR_OPT
# (default mlir-opt-16; skipped when missing), REPEAT (runs, medians; 3).
# Prints wall time, CPU time (user + system) and peak RSS. Target (issue 12,
# item 11): a 25 MB literal in a few seconds at most; exits non-zero when
# shardscope-opt needs over 3 s of CPU for it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SS_OPT="${SHARDSCOPE_OPT:-$ROOT/build/bin/shardscope-opt}"
MLIR_OPT="${MLIR_OPT:-mlir-opt-16}"
# shellcheck source=bench_lib.sh
source "$ROOT/tests/bench/bench_lib.sh"
SIZES=("$@")
((${#SIZES[@]})) || SIZES=(2000000)
[[ -x "$SS_OPT" ]] || { echo "bench: $SS_OPT not built" >&2; exit 2; }
have_mlir=1
command -v "$MLIR_OPT" >/dev/null || have_mlir=0
bench_init

# literal N OP FILE: a function returning one N-element f32 constant of
# random values with nine significant digits.
literal() {
  python3 - "$1" "$2" "$3" <<'EOF'
import random, sys
n, op, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = random.Random(1)
values = ", ".join("%.8e" % rng.uniform(-50, 50) for _ in range(n))
t = "tensor<%dxf32>" % n
with open(path, "w") as f:
    f.write("func.func @main() -> %s {\n  %%0 = %s dense<[%s]> : %s\n  return %%0 : %s\n}\n"
            % (t, op, values, t, t))
EOF
}

echo "start: $(load_note); REPEAT=$REPEAT, medians"
printf '%-9s %6s | %8s %7s %7s | %8s %7s %7s\n' elements MB "ss s" "ss cpu" "ss MB" \
  "mlir s" "mlir cpu" "mlir MB"
ok=1
for n in "${SIZES[@]}"; do
  file="$bench_tmp/literal_$n.mlir"
  literal "$n" stablehlo.constant "$file"
  mb=$(awk "BEGIN { printf \"%.1f\", $(stat -c %s "$file") / 1e6 }")
  measure "$SS_OPT" "$file" -o /dev/null || exit 1
  ss_s=$med_s ss_cpu=$med_cpu ss_mb=$med_mb
  ml_s=- ml_cpu=- ml_mb=-
  if ((have_mlir)); then
    literal "$n" arith.constant "$file"
    measure "$MLIR_OPT" "$file" -o /dev/null || exit 1
    ml_s=$med_s ml_cpu=$med_cpu ml_mb=$med_mb
  fi
  printf '%-9s %6s | %8s %7s %7s | %8s %7s %7s\n' "$n" "$mb" "$ss_s" "$ss_cpu" "$ss_mb" \
    "$ml_s" "$ml_cpu" "$ml_mb"
  rm -f "$file"
  if [[ "$n" == 2000000 ]] && ! awk "BEGIN { exit !($ss_cpu <= 3) }"; then
    echo "bench: a 2,000,000-element literal took ${ss_cpu} s of CPU (target <= 3 s)"
    ok=0
  fi
done
((ok))
