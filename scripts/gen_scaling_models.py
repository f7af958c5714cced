#!/usr/bin/python3
"""Writes one ONNX model of a given family and size, for scripts/bench_compile_scaling.sh.

  /usr/bin/python3 scripts/gen_scaling_models.py FAMILY SIZE OUT.onnx

needs Debian's python3-onnx (nothing it writes is committed). SIZE is the node count of the
graph families and the nesting depth of the control-flow ones:

  chain        SIZE dependent Adds h = h + x on [1,16] (nothing to fold or merge)
  wide         64 branches Mul(x, k) then Adds, SIZE nodes in all, summed pairwise at the end
  transformer  blocks of attention (MatMul, Transpose, Softmax), residual Add, LayerNorm and a
               ReLU MLP on [8,16], about SIZE nodes
  if_nest      If nested SIZE deep in the then branches, each else branch one Sub
  loop_nest    Loop nested SIZE deep, each body one Add and the next Loop (trip count M captured)
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

FLOAT = TensorProto.FLOAT


def vinfo(name, shape, dtype=FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array, dtype=np.float32), name)


def chain(n):
    nodes = [helper.make_node("Add", ["x" if k == 0 else "h%d" % (k - 1), "x"], ["h%d" % k]) for k in range(n)]
    return helper.make_graph(nodes, "chain", [vinfo("x", [1, 16])], [vinfo("h%d" % (n - 1), [1, 16])])


def wide(n, width=64):
    nodes, inits, heads = [], [], []
    depth = max(1, (n - 2 * width) // width)  # Mul + chain per branch, and width - 1 sums
    for b in range(width):
        inits.append(const("k%d" % b, [b + 1.0]))
        prev = "m%d" % b
        nodes.append(helper.make_node("Mul", ["x", "k%d" % b], [prev]))
        for k in range(depth):
            nodes.append(helper.make_node("Add", [prev, "x"], ["b%d_%d" % (b, k)]))
            prev = "b%d_%d" % (b, k)
        heads.append(prev)
    level = 0
    while len(heads) > 1:
        nxt = []
        for k in range(0, len(heads) - 1, 2):
            name = "s%d_%d" % (level, k)
            nodes.append(helper.make_node("Add", [heads[k], heads[k + 1]], [name]))
            nxt.append(name)
        if len(heads) % 2:
            nxt.append(heads[-1])
        heads, level = nxt, level + 1
    return helper.make_graph(nodes, "wide", [vinfo("x", [1, 16])], [vinfo(heads[0], [1, 16])], inits)


def transformer_block(nodes, x, b):
    def op(kind, inputs, **attrs):
        out = "t%d_%d" % (b, len(nodes))
        nodes.append(helper.make_node(kind, inputs, [out], **attrs))
        return out

    q, k, v = op("MatMul", [x, "wq"]), op("MatMul", [x, "wk"]), op("MatMul", [x, "wv"])
    s = op("Mul", [op("MatMul", [q, op("Transpose", [k], perm=[1, 0])]), "scale"])
    att = op("MatMul", [op("MatMul", [op("Softmax", [s], axis=-1), v]), "wo"])
    r = op("Add", [x, att])
    d = op("Sub", [r, op("ReduceMean", [r], axes=[-1])])
    sd = op("Sqrt", [op("Add", [op("ReduceMean", [op("Mul", [d, d])], axes=[-1]), "eps"])])
    y = op("Add", [op("Mul", [op("Div", [d, sd]), "gamma"]), "beta"])
    g = op("Relu", [op("Add", [op("MatMul", [y, "w1"]), "b1"])])
    return op("Add", [y, op("MatMul", [g, "w2"])])


def transformer(n):
    rng = np.random.default_rng(3)
    w = lambda *shape: const("", 0.1 * rng.standard_normal(shape))
    inits = []
    for name, shape in [("wq", (16, 16)), ("wk", (16, 16)), ("wv", (16, 16)), ("wo", (16, 16)), ("w1", (16, 32)),
                        ("w2", (32, 16)), ("b1", (32,)), ("gamma", (16,)), ("beta", (16,))]:
        t = w(*shape)
        t.name = name
        inits.append(t)
    inits += [const("scale", 0.25), const("eps", 1e-5)]
    nodes, x = [], "x"
    while len(nodes) < n:
        x = transformer_block(nodes, x, len(nodes))
    return helper.make_graph(nodes, "transformer", [vinfo("x", [8, 16])], [vinfo(x, [8, 16])], inits)


def if_nest(depth):
    def level(d):  # a branch graph at nesting level d: its output is "y<d>"
        if d == depth:
            return helper.make_graph([helper.make_node("Add", ["x", "one"], ["y%d" % d])], "leaf%d" % d, [],
                                     [vinfo("y%d" % d, [1, 16])])
        else_g = helper.make_graph([helper.make_node("Sub", ["x", "one"], ["e%d" % d])], "else%d" % d, [],
                                   [vinfo("e%d" % d, [1, 16])])
        node = helper.make_node("If", ["c"], ["y%d" % d], then_branch=level(d + 1), else_branch=else_g)
        return helper.make_graph([node], "then%d" % d, [], [vinfo("y%d" % d, [1, 16])])

    top = level(0)
    return helper.make_graph(top.node, "if_nest", [vinfo("x", [1, 16]), vinfo("c", [], TensorProto.BOOL)],
                             [vinfo("y0", [1, 16])], [const("one", np.ones((1, 16)))])


def loop_nest(depth):
    def body(d):  # the body at level d (1-based): h_out<d> = inner loop of (h_in<d> + one)
        nodes = [helper.make_node("Identity", ["cin%d" % d], ["cout%d" % d]),
                 helper.make_node("Add", ["hin%d" % d, "one"], ["a%d" % d])]
        if d < depth:
            nodes.append(helper.make_node("Loop", ["M", "", "a%d" % d], ["hout%d" % d], body=body(d + 1)))
        else:
            nodes.append(helper.make_node("Identity", ["a%d" % d], ["hout%d" % d]))
        return helper.make_graph(nodes, "body%d" % d,
                                 [vinfo("i%d" % d, [], TensorProto.INT64), vinfo("cin%d" % d, [], TensorProto.BOOL),
                                  vinfo("hin%d" % d, [1, 16])],
                                 [vinfo("cout%d" % d, [], TensorProto.BOOL), vinfo("hout%d" % d, [1, 16])])

    node = helper.make_node("Loop", ["M", "", "x"], ["y"], body=body(1))
    return helper.make_graph([node], "loop_nest", [vinfo("M", [], TensorProto.INT64), vinfo("x", [1, 16])],
                             [vinfo("y", [1, 16])], [const("one", np.ones((1, 16)))])


FAMILIES = {"chain": chain, "wide": wide, "transformer": transformer, "if_nest": if_nest, "loop_nest": loop_nest}

if len(sys.argv) != 4 or sys.argv[1] not in FAMILIES or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
    sys.exit("usage: gen_scaling_models.py {%s} SIZE OUT.onnx" % ",".join(FAMILIES))
graph = FAMILIES[sys.argv[1]](int(sys.argv[2]))
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="gen_scaling_models.py"),
     sys.argv[3])
