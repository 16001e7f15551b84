#!/usr/bin/env python3
"""Write a transformer-like StableHLO + sdy module for propagation benchmarks.

    python3 tests/bench/gen_transformer.py --ops 100000 -o /tmp/t100k.mlir

Each layer is a pre-norm block: layer norm (reduce / broadcast / rsqrt), self
attention (Q/K/V projections, reshape + transpose to heads, scaled scores,
softmax, context, output projection, residual) and an MLP (two matmuls with a
tanh-GELU between, residual). Weights carry Megatron shardings on a
["data"=4, "model"=2] mesh (column-parallel Q/K/V and W1, row-parallel Wo and
W2) and the input is batch-sharded, so propagation has real work to do.

The module is written in MLIR's generic op form so that `mlir-opt-16
--allow-unregistered-dialect` can parse the same file as a peer.

With --locations every op carries a location as JAX exports them: its name
scope and primitive (`jit(model)/transformer/layer_3/attention/dot_general`)
around the Python line that made it (`"model.py":41:12`), through `#loc`
aliases written after the module.
"""
import argparse
import sys

B, S, D, H, F = 8, 128, 512, 8, 2048
DH = D // H
MESH = '"sdy.mesh"() {mesh = #sdy.mesh<["data"=4, "model"=2]>, sym_name = "mesh"} : () -> ()'


def t(*shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape) if shape else "tensor<f32>"


# The Python line of each block of the model (a made-up model.py).
BLOCK_LINES = {"ln_1": 20, "attention": 40, "ln_2": 20, "mlp": 70}


class Writer:
    def __init__(self, out, locations=False):
        self.out = out
        self.next = 0
        self.ops = 0
        self.locations = locations
        self.scope = []  # ["transformer", "layer_3", "attention"]
        self.block_op = 0  # ops written in the current block
        self.aliases = {}  # location text -> alias number

    def enter(self, *scope):
        self.scope = list(scope)
        self.block_op = 0

    def alias(self, text):
        if text not in self.aliases:
            self.aliases[text] = len(self.aliases) + 1
        return "#loc%d" % self.aliases[text]

    def location(self, name):
        """` loc(#locN)` for an op `name` made in the current scope."""
        if not self.locations:
            return ""
        block = self.scope[-1] if self.scope else "main"
        line = BLOCK_LINES.get(block, 100) + self.block_op % 12
        self.block_op += 1
        file_loc = self.alias('loc("model.py":%d:%d)' % (line, 4 + 2 * (self.block_op % 5)))
        primitive = name.split(".", 1)[-1]
        path = "/".join(["jit(model)"] + self.scope + [primitive])
        return " loc(%s)" % self.alias('loc("%s"(%s))' % (path, file_loc))

    def write_aliases(self):
        for text, n in sorted(self.aliases.items(), key=lambda kv: kv[1]):
            self.out.write("#loc%d = %s\n" % (n, text))

    def op(self, name, operands, in_types, out_type, props=None, regions=None):
        res = "%%%d" % self.next
        self.next += 1
        self.ops += 1
        # Attributes go in the trailing dictionary (not `<{...}>`) so that
        # mlir-opt-16, which predates properties, reads the file too.
        text = '    %s = "%s"(%s)' % (res, name, ", ".join(operands))
        if regions:
            text += " (" + regions + ")"
        if props:
            text += " {%s}" % props
        text += " : (%s) -> %s%s\n" % (", ".join(in_types), out_type, self.location(name))
        self.out.write(text)
        return res

    def const(self, value, ty):
        return self.op("stablehlo.constant", [], [], ty, props="value = dense<%s> : %s" % (value, ty))

    def bcast(self, x, in_shape, dims, out_shape):
        return self.op("stablehlo.broadcast_in_dim", [x], [t(*in_shape)], t(*out_shape),
                       props="broadcast_dimensions = array<i64%s>" % "".join(": " + ", ".join(map(str, dims)) if dims else ""))

    def binary(self, name, a, b, shape):
        return self.op("stablehlo." + name, [a, b], [t(*shape)] * 2, t(*shape))

    def unary(self, name, a, shape):
        return self.op("stablehlo." + name, [a], [t(*shape)], t(*shape))

    def reduce(self, x, init, shape, dim, combiner):
        out_shape = [d for i, d in enumerate(shape) if i != dim]
        a, b = "%%r%da" % self.next, "%%r%db" % self.next
        body = ('{\n    ^bb0(%s: tensor<f32>, %s: tensor<f32>):\n'
                '      %%s%d = "stablehlo.%s"(%s, %s) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
                '      "stablehlo.return"(%%s%d) : (tensor<f32>) -> ()\n    }'
                % (a, b, self.next, combiner, a, b, self.next))
        self.ops += 2
        return self.op("stablehlo.reduce", [x, init], [t(*shape), t()], t(*out_shape),
                       props="dimensions = array<i64: %d>" % dim, regions=body)

    def dot(self, a, b, a_shape, b_shape, out_shape, lb, rb, lc, rc):
        dims = []
        if lb:
            dims.append("lhs_batching_dimensions = [%s]" % ", ".join(map(str, lb)))
        if rb:
            dims.append("rhs_batching_dimensions = [%s]" % ", ".join(map(str, rb)))
        dims.append("lhs_contracting_dimensions = [%s]" % ", ".join(map(str, lc)))
        dims.append("rhs_contracting_dimensions = [%s]" % ", ".join(map(str, rc)))
        return self.op("stablehlo.dot_general", [a, b], [t(*a_shape), t(*b_shape)], t(*out_shape),
                       props="dot_dimension_numbers = #stablehlo.dot<%s>" % ", ".join(dims))

    def reshape(self, x, in_shape, out_shape):
        return self.op("stablehlo.reshape", [x], [t(*in_shape)], t(*out_shape))

    def transpose(self, x, in_shape, perm):
        out_shape = [in_shape[p] for p in perm]
        return self.op("stablehlo.transpose", [x], [t(*in_shape)], t(*out_shape),
                       props="permutation = array<i64: %s>" % ", ".join(map(str, perm)))

    def layer_norm(self, x, zero):
        shp = (B, S, D)
        s = self.reduce(x, zero, shp, 2, "add")
        n = self.bcast(self.const("%e" % (1.0 / D), t()), (), [], (B, S))
        mean = self.binary("multiply", s, n, (B, S))
        centered = self.binary("subtract", x, self.bcast(mean, (B, S), [0, 1], shp), shp)
        sq = self.binary("multiply", centered, centered, shp)
        var = self.binary("multiply", self.reduce(sq, zero, shp, 2, "add"), n, (B, S))
        eps = self.bcast(self.const("1.000000e-05", t()), (), [], (B, S))
        inv = self.unary("rsqrt", self.binary("add", var, eps, (B, S)), (B, S))
        return self.binary("multiply", centered, self.bcast(inv, (B, S), [0, 1], shp), shp)

    def layer(self, x, w, index=0):
        shp = (B, S, D)
        layer = "layer_%d" % index
        self.enter("transformer", layer, "ln_1")
        zero = self.const("0.000000e+00", t())
        h = self.layer_norm(x, zero)
        self.enter("transformer", layer, "attention")
        heads = []
        for wi in w[:3]:
            p = self.dot(h, wi, shp, (D, D), shp, [], [], [2], [0])
            p = self.reshape(p, shp, (B, S, H, DH))
            heads.append(self.transpose(p, (B, S, H, DH), [0, 2, 1, 3]))
        q, k, v = heads
        hs = (B, H, S, DH)
        scores = self.dot(q, k, hs, hs, (B, H, S, S), [0, 1], [0, 1], [3], [3])
        ss = (B, H, S, S)
        scale = self.bcast(self.const("1.250000e-01", t()), (), [], ss)
        scores = self.binary("multiply", scores, scale, ss)
        mx = self.reduce(scores, zero, ss, 3, "maximum")
        ex = self.unary("exponential", self.binary("subtract", scores, self.bcast(mx, (B, H, S), [0, 1, 2], ss), ss), ss)
        sm = self.reduce(ex, zero, ss, 3, "add")
        probs = self.binary("divide", ex, self.bcast(sm, (B, H, S), [0, 1, 2], ss), ss)
        ctx = self.dot(probs, v, ss, hs, hs, [0, 1], [0, 1], [3], [2])
        ctx = self.reshape(self.transpose(ctx, hs, [0, 2, 1, 3]), (B, S, H, DH), shp)
        out = self.dot(ctx, w[3], shp, (D, D), shp, [], [], [2], [0])
        x = self.binary("add", x, out, shp)
        self.enter("transformer", layer, "ln_2")
        h = self.layer_norm(x, zero)
        self.enter("transformer", layer, "mlp")
        up = self.dot(h, w[4], shp, (D, F), (B, S, F), [], [], [2], [0])
        fs = (B, S, F)
        gelu = self.binary("multiply", up, self.unary("tanh", up, fs), fs)
        down = self.dot(gelu, w[5], fs, (F, D), shp, [], [], [2], [0])
        return self.binary("add", x, down, shp)


LAYER_OPS = 73  # ops written per layer


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", type=int, default=10000, help="approximate number of ops")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--locations", action="store_true",
                    help="give every op a JAX-style location (name scope and Python line)")
    a = ap.parse_args()
    layers = max(1, a.ops // LAYER_OPS)
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    col = '{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}'
    row = '{sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}'
    args, attrs, types = [], [], []
    args.append("%x")
    types.append(t(B, S, D))
    attrs.append('{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}')
    for l in range(layers):
        for j, (shape, attr) in enumerate([((D, D), col), ((D, D), col), ((D, D), col), ((D, D), row),
                                           ((D, F), col), ((F, D), row)]):
            args.append("%%w%d_%d" % (l, j))
            types.append(t(*shape))
            attrs.append(attr)
    out.write('"builtin.module"() ({\n  %s\n' % MESH)
    out.write('  "func.func"() ({\n')
    out.write("  ^bb0(%s):\n" % ", ".join("%s: %s" % (n, ty) for n, ty in zip(args, types)))
    w = Writer(out, a.locations)
    x = "%x"
    for l in range(layers):
        x = w.layer(x, ["%%w%d_%d" % (l, j) for j in range(6)], l)
    out.write('    "func.return"(%s) : (%s) -> ()\n' % (x, t(B, S, D)))
    out.write('  }) {arg_attrs = [%s], function_type = (%s) -> %s, sym_name = "main"} : () -> ()\n'
              % (", ".join(attrs), ", ".join(types), t(B, S, D)))
    out.write("}) : () -> ()\n")
    w.write_aliases()
    if out is not sys.stdout:
        out.close()
    sys.stderr.write("%d layers, %d ops\n" % (layers, w.ops + 1))


if __name__ == "__main__":
    main()
