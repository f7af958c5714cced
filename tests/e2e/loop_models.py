"""ONNX models with static control flow and their numpy goldens, for sink_control_flow_test.cc
and scripts/bench_control_flow.sh.

    /usr/bin/python3 loop_models.py DIR [WIDTH]

Writes NAME.onnx and per case NAME.CASE.in<k>.npy (the graph inputs in order) and
NAME.CASE.out0.npy (numpy's result):

  mlp_loop   Loop(M): h = tanh(h W + b), W [WIDTH, WIDTH] and b initializers of the body
             (a captured outer initializer scales the input once per iteration too);
             cases m0, m1, m16
  add_loop   Loop(M): h = h + 1 on [1, 16]: a body of one tiny kernel, so the time per
             iteration is the runtime's own; cases m0, m16, m256
  while_if   Loop(cond): v = v * 2 while sum(v) < 100, then If(sum > 150): v - 100 else -v;
             cases small (7 iterations, then branch), big (no iteration, else branch)

Exits 77 (the test skips) without numpy or onnx.
"""
import os
import sys

try:
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper, save
except ImportError as e:
    print("SKIP: %s (install python3-numpy python3-onnx)" % e)
    sys.exit(77)

if len(sys.argv) not in (2, 3):
    sys.exit("usage: loop_models.py DIR [WIDTH]")
out = sys.argv[1]
width = int(sys.argv[2]) if len(sys.argv) == 3 else 64
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)


def scalar(name, dtype):
    return helper.make_tensor_value_info(name, dtype, [])


def save_case(name, case, inputs, outputs):
    for k, a in enumerate(inputs):
        np.save(os.path.join(out, "%s.%s.in%d.npy" % (name, case, k)), a)
    for k, a in enumerate(outputs):
        np.save(os.path.join(out, "%s.%s.out%d.npy" % (name, case, k)), a)


def model(name, graph):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="loop_models.py")
    save(m, os.path.join(out, name + ".onnx"))


# ---- mlp_loop
w = (rng.standard_normal((width, width)) / np.sqrt(width)).astype(np.float32)
b = (0.1 * rng.standard_normal((1, width))).astype(np.float32)
scale = np.float32(0.9)
body = helper.make_graph(
    [
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Mul", ["h_in", "scale"], ["hs"]),  # `scale` is captured from the outer graph
        helper.make_node("MatMul", ["hs", "W"], ["mm"]),
        helper.make_node("Add", ["mm", "B"], ["pre"]),
        helper.make_node("Tanh", ["pre"], ["h_out"]),
    ],
    "body",
    [scalar("i", TensorProto.INT64), scalar("cond_in", TensorProto.BOOL),
     helper.make_tensor_value_info("h_in", TensorProto.FLOAT, [1, width])],
    [scalar("cond_out", TensorProto.BOOL), helper.make_tensor_value_info("h_out", TensorProto.FLOAT, [1, width])],
    [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "B")],
)
graph = helper.make_graph(
    [helper.make_node("Loop", ["M", "", "h0"], ["h"], body=body)],
    "mlp_loop",
    [scalar("M", TensorProto.INT64), helper.make_tensor_value_info("h0", TensorProto.FLOAT, [1, width])],
    [helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, width])],
    [numpy_helper.from_array(np.array(scale, dtype=np.float32), "scale")],
)
model("mlp_loop", graph)
h0 = rng.standard_normal((1, width)).astype(np.float32)
for m in (0, 1, 16):
    h = h0.astype(np.float64)
    for _ in range(m):
        h = np.tanh((h * np.float64(scale)) @ w.astype(np.float64) + b)
    save_case("mlp_loop", "m%d" % m, [np.array(m, dtype=np.int64), h0], [h.astype(np.float32)])

# ---- add_loop
body = helper.make_graph(
    [helper.make_node("Identity", ["cond_in"], ["cond_out"]), helper.make_node("Add", ["h_in", "one"], ["h_out"])],
    "body",
    [scalar("i", TensorProto.INT64), scalar("cond_in", TensorProto.BOOL),
     helper.make_tensor_value_info("h_in", TensorProto.FLOAT, [1, 16])],
    [scalar("cond_out", TensorProto.BOOL), helper.make_tensor_value_info("h_out", TensorProto.FLOAT, [1, 16])],
    [numpy_helper.from_array(np.ones((1, 16), np.float32), "one")],
)
graph = helper.make_graph(
    [helper.make_node("Loop", ["M", "", "h0"], ["h"], body=body)],
    "add_loop",
    [scalar("M", TensorProto.INT64), helper.make_tensor_value_info("h0", TensorProto.FLOAT, [1, 16])],
    [helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, 16])],
)
model("add_loop", graph)
z = np.zeros((1, 16), np.float32)
for m in (0, 16, 256):
    save_case("add_loop", "m%d" % m, [np.array(m, dtype=np.int64), z], [z + m])

# ---- while_if
body = helper.make_graph(
    [
        helper.make_node("Add", ["v_in", "v_in"], ["v_out"]),
        helper.make_node("ReduceSum", ["v_out"], ["s"], keepdims=0),
        helper.make_node("Less", ["s", "limit"], ["cond_out"]),
    ],
    "body",
    [scalar("i", TensorProto.INT64), scalar("cond_in", TensorProto.BOOL),
     helper.make_tensor_value_info("v_in", TensorProto.FLOAT, [3])],
    [scalar("cond_out", TensorProto.BOOL), helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [3])],
    [numpy_helper.from_array(np.array(100, np.float32), "limit")],
)
then_g = helper.make_graph([helper.make_node("Sub", ["v", "hundred"], ["t"])], "then",
                           [], [helper.make_tensor_value_info("t", TensorProto.FLOAT, [3])],
                           [numpy_helper.from_array(np.array(100, np.float32), "hundred")])
else_g = helper.make_graph([helper.make_node("Neg", ["v"], ["e"])], "else", [],
                           [helper.make_tensor_value_info("e", TensorProto.FLOAT, [3])])
graph = helper.make_graph(
    [
        helper.make_node("ReduceSum", ["x"], ["s0"], keepdims=0),
        helper.make_node("Less", ["s0", "limit0"], ["go"]),
        helper.make_node("Loop", ["", "go", "x"], ["v"], body=body),
        helper.make_node("ReduceSum", ["v"], ["sv"], keepdims=0),
        helper.make_node("Greater", ["sv", "big"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g),
    ],
    "while_if",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    [numpy_helper.from_array(np.array(100, np.float32), "limit0"),
     numpy_helper.from_array(np.array(150, np.float32), "big")],
)
model("while_if", graph)
for case, x in (("small", np.array([0.5, 1, 0.25], np.float32)), ("big", np.array([100, 20, 30], np.float32))):
    v = x.copy()
    if v.sum() < 100:
        while True:
            v = v + v
            if not v.sum() < 100:
                break
    y = v - 100 if v.sum() > 150 else -v
    save_case("while_if", case, [x], [y.astype(np.float32)])
print("wrote mlp_loop, add_loop, while_if to", out)
