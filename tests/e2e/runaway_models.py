"""ONNX models that never end on their own, for the v2 run limits (v2_limits_test.cc):

    /usr/bin/python3 runaway_models.py DIR

  while_true  Loop(cond): v = -v while cond (an input, never changed by the body);
              inputs cond.true.npy / cond.false.npy and v4.npy (f32[4])
  grow_loop   Loop(cond): v = Concat(v, v), doubling every iteration; input v1k.npy (f32[1024])
  huge_scan   Scan over xs f32[N, 0] (no bytes whatever N): acc = -acc per slice;
              inputs acc1.npy (f32[1]) and xs_1e9.npy (f32[1000000000, 0]), xs_4.npy (f32[4, 0])

Exits 77 (the test skips) without numpy or onnx.
"""
import os
import sys

try:
    import numpy as np
    from onnx import TensorProto, helper, save
except ImportError as e:
    print("SKIP: %s (install python3-numpy python3-onnx)" % e)
    sys.exit(77)

if len(sys.argv) != 2:
    sys.exit("usage: runaway_models.py DIR")
out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def info(name, dtype, dims):
    return helper.make_tensor_value_info(name, dtype, dims)


def model(name, graph):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="runaway_models.py")
    save(m, os.path.join(out, name + ".onnx"))


def while_loop(name, body_op, dims):
    """Loop(cond) carrying v, the body's condition the one it was given."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]), body_op],
        name + "_body",
        [info("i", TensorProto.INT64, []), info("cond_in", TensorProto.BOOL, []), info("v_in", TensorProto.FLOAT, dims)],
        [info("cond_out", TensorProto.BOOL, []), info("v_out", TensorProto.FLOAT, dims)],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["", "cond", "v0"], ["v"], body=body, name="loop1")],
        name,
        [info("cond", TensorProto.BOOL, []), info("v0", TensorProto.FLOAT, dims)],
        [info("v", TensorProto.FLOAT, dims)],
    )
    model(name, graph)


while_loop("while_true", helper.make_node("Neg", ["v_in"], ["v_out"]), [4])
while_loop("grow_loop", helper.make_node("Concat", ["v_in", "v_in"], ["v_out"], axis=0), ["n"])

scan_body = helper.make_graph(
    [helper.make_node("Neg", ["acc_in"], ["acc_out"])],
    "huge_scan_body",
    [info("acc_in", TensorProto.FLOAT, [1]), info("x", TensorProto.FLOAT, [0])],
    [info("acc_out", TensorProto.FLOAT, [1])],
)
model("huge_scan", helper.make_graph(
    [helper.make_node("Scan", ["acc0", "xs"], ["acc"], body=scan_body, num_scan_inputs=1, name="scan1")],
    "huge_scan",
    [info("acc0", TensorProto.FLOAT, [1]), info("xs", TensorProto.FLOAT, ["n", 0])],
    [info("acc", TensorProto.FLOAT, [1])],
))

np.save(os.path.join(out, "cond.true.npy"), np.array(True))
np.save(os.path.join(out, "cond.false.npy"), np.array(False))
np.save(os.path.join(out, "v4.npy"), np.arange(4, dtype=np.float32))
np.save(os.path.join(out, "v1k.npy"), np.ones(1024, dtype=np.float32))
np.save(os.path.join(out, "acc1.npy"), np.ones(1, dtype=np.float32))
np.save(os.path.join(out, "xs_1e9.npy"), np.zeros((1000000000, 0), dtype=np.float32))
np.save(os.path.join(out, "xs_4.npy"), np.zeros((4, 0), dtype=np.float32))
