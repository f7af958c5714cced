"""Malformed ONNX control flow for sink_control_flow_test.cc: each model must be refused by ge-atc
with one error line, never crash.

    /usr/bin/python3 malformed_control_flow.py DIR

  loop_missing_output    the body returns cond only; the Loop carries one value
  loop_wrong_arity       the body takes 2 inputs; the Loop gives it 3 (iteration, cond, v)
  if_output_count        the branches return 1 and 2 values
  if_output_dtype        the branches return float and int64
  loop_body_unknown_op   the body holds an op ge does not know
  if_no_else             an If without its else_branch

Exits 77 (the test skips) without onnx.
"""
import os
import sys

try:
    from onnx import TensorProto, helper, save
except ImportError as e:
    print("SKIP: %s (install python3-onnx)" % e)
    sys.exit(77)

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def vi(name, t, shape):
    return helper.make_tensor_value_info(name, t, shape)


def write(name, nodes, inputs, outputs):
    g = helper.make_graph(nodes, name, inputs, outputs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    save(m, os.path.join(out, name + ".onnx"))  # unchecked on purpose


loop_io = ([vi("M", I64, []), vi("v0", F, [2])], [vi("v", F, [2])])
body = helper.make_graph([helper.make_node("Identity", ["c"], ["c_out"])], "body",
                         [vi("i", I64, []), vi("c", B, []), vi("x", F, [2])], [vi("c_out", B, [])])
write("loop_missing_output", [helper.make_node("Loop", ["M", "", "v0"], ["v"], body=body)], *loop_io)

body = helper.make_graph([helper.make_node("Identity", ["c"], ["c_out"]), helper.make_node("Identity", ["c"], ["x_out"])],
                         "body", [vi("i", I64, []), vi("c", B, [])], [vi("c_out", B, []), vi("x_out", B, [])])
write("loop_wrong_arity", [helper.make_node("Loop", ["M", "", "v0"], ["v"], body=body)], *loop_io)

if_io = ([vi("c", B, []), vi("x", F, [2])], [vi("y", F, [2])])
one = helper.make_graph([helper.make_node("Neg", ["x"], ["a"])], "then", [], [vi("a", F, [2])])
two = helper.make_graph([helper.make_node("Neg", ["x"], ["b"]), helper.make_node("Abs", ["x"], ["d"])], "else", [],
                        [vi("b", F, [2]), vi("d", F, [2])])
write("if_output_count", [helper.make_node("If", ["c"], ["y"], then_branch=one, else_branch=two)], *if_io)

ints = helper.make_graph([helper.make_node("Shape", ["x"], ["s"])], "else", [], [vi("s", I64, [1])])
write("if_output_dtype", [helper.make_node("If", ["c"], ["y"], then_branch=one, else_branch=ints)], *if_io)

body = helper.make_graph([helper.make_node("Identity", ["c"], ["c_out"]), helper.make_node("NoSuchOp", ["x"], ["x_out"])],
                         "body", [vi("i", I64, []), vi("c", B, []), vi("x", F, [2])], [vi("c_out", B, []), vi("x_out", F, [2])])
write("loop_body_unknown_op", [helper.make_node("Loop", ["M", "", "v0"], ["v"], body=body)], *loop_io)

write("if_no_else", [helper.make_node("If", ["c"], ["y"], then_branch=one)], *if_io)
print("wrote 6 malformed models to", out)
