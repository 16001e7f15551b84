#!/usr/bin/env python3
"""Write a large StableHLO + sdy module in MLIR's generic op form.

    python3 tests/bench/gen_module.py [-n OPS] [-o FILE] [--funcs K]

The module holds an `sdy.mesh` and K `func.func`s (default 1); their bodies
are one chain of OPS ops in all (default 100000, about 16 MB), cycling through
"stablehlo.add", "stablehlo.multiply" and "stablehlo.dot_general", each with
an `sdy.sharding` (#sdy.sharding_per_value) attribute. Every op is in generic
form, so the file is valid for

    mlir-opt-16 --allow-unregistered-dialect FILE -o /dev/null

(stablehlo and sdy are not registered there; their ops and attributes parse
as unregistered/opaque). Output is deterministic for given arguments.
Python 3 standard library only.
"""
import argparse
import sys

T = "tensor<128x128xf32>"
SHARDINGS = [
    '[{"x"}, {}]', '[{}, {"y"}]', '[{"x"}, {"y"}]', '[{"y"}, {"x"}]',
    '[{"x", "y"}, {}]', '[{}, {}]', '[{"x"}, {?}]', '[{?}, {"y"}]',
]
DOT = ("#stablehlo.dot<lhs_contracting_dimensions = [1], "
       "rhs_contracting_dimensions = [0]>")


def sharding(i):
    return '#sdy.sharding_per_value<[<@mesh, %s>]>' % SHARDINGS[i % len(SHARDINGS)]


def write_func(w, name, first, count):
    """One func.func with args %arg0, %arg1 and `count` chained ops."""
    w('  "func.func"() ({\n')
    w('  ^bb0(%%arg0: %s, %%arg1: %s):\n' % (T, T))
    prev2, prev1 = "%arg0", "%arg1"
    for k in range(count):
        i = first + k
        v = "%%%d" % k
        kind = i % 3
        if kind == 0:
            w('    %s = "stablehlo.add"(%s, %s) {sdy.sharding = %s} : (%s, %s) -> %s\n'
              % (v, prev1, prev2, sharding(i), T, T, T))
        elif kind == 1:
            w('    %s = "stablehlo.multiply"(%s, %s) {sdy.sharding = %s} : (%s, %s) -> %s\n'
              % (v, prev1, prev2, sharding(i), T, T, T))
        else:
            w('    %s = "stablehlo.dot_general"(%s, %s) {dot_dimension_numbers = %s, '
              'sdy.sharding = %s} : (%s, %s) -> %s\n'
              % (v, prev1, prev2, DOT, sharding(i), T, T, T))
        prev2, prev1 = prev1, v
    w('    "func.return"(%s) : (%s) -> ()\n' % (prev1, T))
    w('  }) {arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, '
      '{sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}], '
      'function_type = (%s, %s) -> %s, '
      'res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}], '
      'sym_name = "%s"} : () -> ()\n' % (T, T, T, name))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--ops", type=int, default=100000, help="ops in all (default 100000)")
    ap.add_argument("--funcs", type=int, default=1, help="functions to spread them over")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    a = ap.parse_args()
    if a.ops < 0 or a.funcs < 1:
        ap.error("need --ops >= 0 and --funcs >= 1")
    out = sys.stdout if a.output == "-" else open(a.output, "w", encoding="utf-8")
    buf = []
    w = buf.append
    w('"builtin.module"() ({\n')
    w('  "sdy.mesh"() {mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"} : () -> ()\n')
    per, extra = divmod(a.ops, a.funcs)
    first = 0
    for f in range(a.funcs):
        n = per + (1 if f < extra else 0)
        write_func(w, "main" if a.funcs == 1 else "f%d" % f, first, n)
        first += n
        if len(buf) > 4096:
            out.write("".join(buf))
            buf.clear()
    w('}) : () -> ()\n')
    out.write("".join(buf))
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
