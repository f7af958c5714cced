// TF control flow written as TensorFlow writes it, for the unit tests
// (tf_control_flow_test.cc) and the e2e test (tests/e2e/tf_control_flow_test.cc,
// numpy goldens in tf_control_flow_golden.py): TF 1.x frames
// (Enter/Merge/Switch/LoopCond/NextIteration/Exit), tf.cond
// (Switch/Merge with pred_id and the pivot), dynamic_rnn's TensorArrays, and
// TF 2 functional ops over a FunctionDefLibrary.
#pragma once

#include "tf_test_util.h"

namespace ge::test {

// Parse → Compile → load (v2) → ExecuteShaped: control flow makes a model
// dynamic. The outputs in NetOutput order, with the dims they came out with.
inline Result<std::vector<HostValue>> RunTfDynamic(const TfGraph& g, const std::vector<HostValue>& inputs,
                                                   const ParseOptions& o = {}) {
  GE_ASSIGN_OR_RETURN(auto loaded, LoadTf(g, o));
  if (loaded->inputs().size() != inputs.size()) return InvalidArgument("the model's inputs differ from the test's");
  std::vector<TensorView> in;
  for (size_t i = 0; i < inputs.size(); ++i)
    in.push_back(TensorView{loaded->inputs()[i].desc.dtype, inputs[i].dims, inputs[i].bytes.data()});
  std::vector<Tensor> out;
  GE_RETURN_IF_ERROR(loaded->ExecuteShaped(in, out));
  std::vector<HostValue> outs(out.size());
  for (size_t j = 0; j < out.size(); ++j) {
    outs[j].dims = out[j].desc().dims;
    outs[j].bytes.assign(out[j].data(), out[j].data() + out[j].size());
  }
  return outs;
}

// A node of a TF 1.x while frame.
inline tf::NodeDef* Enter(TfGraph& g, const std::string& name, const std::string& in, const std::string& frame,
                          bool constant = false) {
  tf::NodeDef* n = g.Node("Enter", name, {in});
  SetS(n, "frame_name", frame);
  SetB(n, "is_constant", constant);
  return n;
}

// One loop variable's Enter → Merge ← NextIteration, Switch on `loop_cond`,
// Identity (the body's view) and Exit: "<p>/Enter<s>", "<p>/Merge<s>", ...
inline void LoopVar(TfGraph& g, const std::string& p, const std::string& s, const std::string& init,
                    const std::string& frame) {
  Enter(g, p + "/Enter" + s, init, frame);
  g.Node("Merge", p + "/Merge" + s, {p + "/Enter" + s, p + "/NextIteration" + s});
  g.Node("Switch", p + "/Switch" + s, {p + "/Merge" + s, p + "/LoopCond"});
  g.Node("Identity", p + "/Identity" + s, {p + "/Switch" + s + ":1"});
  g.Node("Exit", p + "/Exit" + s, {p + "/Switch" + s});
}

// The frame both counter loops share: i from 0 while i < n (n an int32
// Placeholder read through a constant Enter), acc from x; i + 1 is
// while/add. The body of acc (into while/NextIteration_1) is the caller's.
inline TfGraph CounterFrame() {
  TfGraph g;
  g.Placeholder("n", {}, tf::DT_INT32);
  g.Placeholder("x", {2});
  g.ConstI32("i0", {}, {0});
  const std::string f = "while/while_context";
  LoopVar(g, "while", "", "i0", f);
  LoopVar(g, "while", "_1", "x", f);
  Enter(g, "while/Enter_2", "n", f, true);
  g.Node("Less", "while/Less", {"while/Merge", "while/Enter_2"});
  g.Node("LoopCond", "while/LoopCond", {"while/Less"});
  g.ConstI32("while/add/y", {}, {1})->add_input("^while/Identity");
  g.Node("AddV2", "while/add", {"while/Identity", "while/add/y"});
  g.Node("NextIteration", "while/NextIteration", {"while/add"});
  return g;
}

// i, acc = 0, x; while i < n: i, acc = i + 1, 2 * acc + x
// (x read in the body through a second constant Enter). Outputs:
// while/Exit (i) and while/Exit_1 (acc).
inline TfGraph CounterLoop() {
  TfGraph g = CounterFrame();
  Enter(g, "while/Enter_3", "x", "while/while_context", true);
  g.ConstF("while/mul/y", {}, {2})->add_input("^while/Identity");
  g.Node("Mul", "while/mul", {"while/Identity_1", "while/mul/y"});
  g.Node("AddV2", "while/add_1", {"while/mul", "while/Enter_3"});
  g.Node("NextIteration", "while/NextIteration_1", {"while/add_1"});
  return g;
}

// y = tf.cond(sum(x) > 0, lambda: relu(x) * 2, lambda: -x - z), as TF 1.x
// writes it: the pivot Switch(pred, pred), pred_id, one Switch per value a
// branch reads, a constant hanging off the pivot, Merge(else, then).
inline TfGraph Cond() {
  TfGraph g;
  g.Placeholder("x", {3});
  g.Placeholder("z", {3});
  g.ConstI32("axis", {1}, {0});
  g.Node("Sum", "sum", {"x", "axis"});
  g.ConstF("zero", {}, {0});
  g.Node("Greater", "pred", {"sum", "zero"});
  g.Node("Switch", "cond/Switch", {"pred", "pred"});
  g.Node("Identity", "cond/switch_t", {"cond/Switch:1"});
  g.Node("Identity", "cond/switch_f", {"cond/Switch"});
  g.Node("Identity", "cond/pred_id", {"pred"});
  g.Node("Switch", "cond/Switch_1", {"x", "cond/pred_id"});
  g.Node("Relu", "cond/Relu", {"cond/Switch_1:1"});
  g.ConstF("cond/mul/y", {}, {2})->add_input("^cond/switch_t");
  g.Node("Mul", "cond/mul", {"cond/Relu", "cond/mul/y"});
  g.Node("Switch", "cond/Switch_2", {"x", "cond/pred_id"});
  g.Node("Switch", "cond/Switch_3", {"z", "cond/pred_id"});
  g.Node("Neg", "cond/Neg", {"cond/Switch_2"});
  g.Node("Sub", "cond/sub", {"cond/Neg", "cond/Switch_3"});
  g.Node("Merge", "cond/Merge", {"cond/sub", "cond/mul"});
  return g;
}

// acc = x; for i in range(n): acc = tf.cond(i < 2, lambda: acc + 1, lambda: acc * 2)
// — a tf.cond inside a while body. Output: while/Exit_1.
inline TfGraph CondInLoop() {
  TfGraph g = CounterFrame();
  g.ConstI32("while/two", {}, {2})->add_input("^while/Identity");
  g.Node("Less", "while/cond/pred", {"while/Identity", "while/two"});
  g.Node("Switch", "while/cond/Switch", {"while/cond/pred", "while/cond/pred"});
  g.Node("Identity", "while/cond/switch_t", {"while/cond/Switch:1"});
  g.Node("Identity", "while/cond/switch_f", {"while/cond/Switch"});
  g.Node("Identity", "while/cond/pred_id", {"while/cond/pred"});
  g.Node("Switch", "while/cond/Switch_1", {"while/Identity_1", "while/cond/pred_id"});
  g.ConstF("while/cond/one", {}, {1})->add_input("^while/cond/switch_t");
  g.Node("AddV2", "while/cond/add", {"while/cond/Switch_1:1", "while/cond/one"});
  g.ConstF("while/cond/two", {}, {2})->add_input("^while/cond/switch_f");
  g.Node("Mul", "while/cond/mul", {"while/cond/Switch_1", "while/cond/two"});
  g.Node("Merge", "while/cond/Merge", {"while/cond/mul", "while/cond/add"});
  g.Node("NextIteration", "while/NextIteration_1", {"while/cond/Merge"});
  return g;
}

// tf.nn.dynamic_rnn(BasicRNNCell(3), x) as TF 1.x freezes it: x [batch 2,
// time 4, 4] made time-major, scattered into a TensorArray read by `time`
// in the loop, h = tanh(concat(x_t, h) @ W + b) written to a second
// TensorArray once per step and gathered after the loop. Outputs:
// "outputs" [2, 4, 3] and "state" (rnn/while/Exit_2) [2, 3]. W is "rnn/W"
// [7, 3], b "rnn/b" [3], from the caller.
inline TfGraph DynamicRnn(const Floats& w, const Floats& b) {
  TfGraph g;
  g.Placeholder("x", {2, 4, 4});
  g.ConstF("rnn/W", {7, 3}, w);
  g.ConstF("rnn/b", {3}, b);
  g.ConstI32("rnn/perm", {3}, {1, 0, 2});
  g.Node("Transpose", "rnn/transpose", {"x", "rnn/perm"});
  g.Node("Shape", "rnn/Shape", {"rnn/transpose"});
  g.ConstI32("rnn/ss/begin", {1}, {0});
  g.ConstI32("rnn/ss/end", {1}, {1});
  g.ConstI32("rnn/ss/strides", {1}, {1});
  SetI(g.Node("StridedSlice", "rnn/time_steps", {"rnn/Shape", "rnn/ss/begin", "rnn/ss/end", "rnn/ss/strides"}),
       "shrink_axis_mask", 1);
  SetType(g.Node("TensorArrayV3", "rnn/TensorArray", {"rnn/time_steps"}), "dtype", tf::DT_FLOAT);
  SetType(g.Node("TensorArrayV3", "rnn/TensorArray_1", {"rnn/time_steps"}), "dtype", tf::DT_FLOAT);
  g.ConstI32("rnn/range/start", {}, {0});
  g.ConstI32("rnn/range/delta", {}, {1});
  g.Node("Range", "rnn/TensorArrayUnstack/range", {"rnn/range/start", "rnn/time_steps", "rnn/range/delta"});
  g.Node("TensorArrayScatterV3", "rnn/TensorArrayUnstack/Scatter",
         {"rnn/TensorArray_1", "rnn/TensorArrayUnstack/range", "rnn/transpose", "rnn/TensorArray_1:1"});
  g.ConstI32("rnn/time", {}, {0});
  g.ConstF("rnn/zeros", {2, 3}, Floats(6, 0.f));
  const std::string f = "rnn/while/while_context";
  const std::string p = "rnn/while";
  LoopVar(g, p, "", "rnn/time", f);
  LoopVar(g, p, "_1", "rnn/TensorArray:1", f);
  LoopVar(g, p, "_2", "rnn/zeros", f);
  Enter(g, p + "/Enter_3", "rnn/time_steps", f, true);
  Enter(g, p + "/Enter_4", "rnn/TensorArray_1", f, true);
  Enter(g, p + "/Enter_5", "rnn/TensorArrayUnstack/Scatter", f, true);
  Enter(g, p + "/Enter_6", "rnn/TensorArray", f, true);
  Enter(g, p + "/Enter_7", "rnn/W", f, true);
  Enter(g, p + "/Enter_8", "rnn/b", f, true);
  g.Node("Less", p + "/Less", {p + "/Merge", p + "/Enter_3"});
  g.Node("LoopCond", p + "/LoopCond", {p + "/Less"});
  g.Node("TensorArrayReadV3", p + "/Read", {p + "/Enter_4", p + "/Identity", p + "/Enter_5"});
  g.ConstI32(p + "/axis", {}, {1})->add_input("^" + p + "/Identity");
  g.Node("ConcatV2", p + "/concat", {p + "/Read", p + "/Identity_2", p + "/axis"});
  g.Node("MatMul", p + "/MatMul", {p + "/concat", p + "/Enter_7"});
  g.Node("BiasAdd", p + "/BiasAdd", {p + "/MatMul", p + "/Enter_8"});
  g.Node("Tanh", p + "/Tanh", {p + "/BiasAdd"});
  g.Node("TensorArrayWriteV3", p + "/Write", {p + "/Enter_6", p + "/Identity", p + "/Tanh", p + "/Identity_1"});
  g.ConstI32(p + "/add/y", {}, {1})->add_input("^" + p + "/Identity");
  g.Node("AddV2", p + "/add", {p + "/Identity", p + "/add/y"});
  g.Node("NextIteration", p + "/NextIteration", {p + "/add"});
  g.Node("NextIteration", p + "/NextIteration_1", {p + "/Write"});
  g.Node("NextIteration", p + "/NextIteration_2", {p + "/Tanh"});
  g.Node("TensorArraySizeV3", "rnn/Stack/Size", {"rnn/TensorArray", p + "/Exit_1"});
  g.Node("Range", "rnn/Stack/range", {"rnn/range/start", "rnn/Stack/Size", "rnn/range/delta"});
  g.Node("TensorArrayGatherV3", "rnn/Stack/Gather", {"rnn/TensorArray", "rnn/Stack/range", p + "/Exit_1"});
  g.Node("Transpose", "outputs", {"rnn/Stack/Gather", "rnn/perm"});
  g.Node("Identity", "state", {p + "/Exit_2"});
  return g;
}

// ---- TF 2 functions ----

inline tf::FunctionDef* Function(TfGraph& g, const std::string& name,
                                 std::initializer_list<std::pair<const char*, tf::DataType>> args,
                                 std::initializer_list<std::pair<const char*, const char*>> rets) {
  tf::FunctionDef* f = g.def().mutable_library()->add_function();
  f->mutable_signature()->set_name(name);
  for (const auto& [a, t] : args) {
    auto* arg = f->mutable_signature()->add_input_arg();
    arg->set_name(a);
    arg->set_type(t);
  }
  for (const auto& [r, ref] : rets) {
    f->mutable_signature()->add_output_arg()->set_name(r);
    (*f->mutable_ret())[r] = ref;
  }
  return f;
}

inline tf::NodeDef* FnNode(tf::FunctionDef* f, const std::string& op, const std::string& name,
                           std::initializer_list<std::string> inputs) {
  tf::NodeDef* n = f->add_node_def();
  n->set_op(op);
  n->set_name(name);
  for (const auto& i : inputs) n->add_input(i);
  return n;
}

inline void FnConst(tf::FunctionDef* f, const std::string& name, tf::DataType dt, float v) {
  tf::NodeDef* n = FnNode(f, "Const", name, {});
  (*n->mutable_attr())["dtype"].set_type(dt);
  tf::TensorProto* t = (*n->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(dt);
  t->mutable_tensor_shape();
  if (dt == tf::DT_INT32) t->add_int_val(static_cast<int32_t>(v));
  else t->add_float_val(v);
}

inline void SetFn(tf::NodeDef* n, const std::string& attr, const std::string& fn) {
  (*n->mutable_attr())[attr].mutable_func()->set_name(fn);
}

// TF 2, frozen with its functional ops kept:
//   i, acc = StatelessWhile(i < n, (i + 1, acc * 1.5 + 1), (0, x))  [n passed through]
//   y = StatelessIf(sum(acc) > 10, relu(acc - 10), -acc)
//   s = PartitionedCall(scale3, y)       (y * 3)
// Outputs "y" and "s".
inline TfGraph Functional() {
  TfGraph g;
  g.Placeholder("x", {2});
  g.Placeholder("n", {}, tf::DT_INT32);
  g.ConstI32("i0", {}, {0});
  tf::FunctionDef* cond = Function(g, "while_cond", {{"i", tf::DT_INT32}, {"acc", tf::DT_FLOAT}, {"n", tf::DT_INT32}},
                                   {{"keep", "Less:z:0"}});
  FnNode(cond, "Less", "Less", {"i", "n"});
  tf::FunctionDef* body =
      Function(g, "while_body", {{"i", tf::DT_INT32}, {"acc", tf::DT_FLOAT}, {"n", tf::DT_INT32}},
               {{"i_next", "add:z:0"}, {"acc_next", "add_1:z:0"}, {"n_out", "n"}});
  FnConst(body, "one", tf::DT_INT32, 1);
  FnNode(body, "AddV2", "add", {"i", "one:output:0"});
  FnConst(body, "k", tf::DT_FLOAT, 1.5f);
  FnConst(body, "onef", tf::DT_FLOAT, 1.f);
  FnNode(body, "Mul", "mul", {"acc", "k:output:0"});
  FnNode(body, "AddV2", "add_1", {"mul:z:0", "onef:output:0"});
  tf::FunctionDef* then_fn = Function(g, "then_fn", {{"a", tf::DT_FLOAT}}, {{"r", "Relu:activations:0"}});
  FnConst(then_fn, "ten", tf::DT_FLOAT, 10.f);
  FnNode(then_fn, "Sub", "sub", {"a", "ten:output:0"});
  FnNode(then_fn, "Relu", "Relu", {"sub:z:0"});
  tf::FunctionDef* else_fn = Function(g, "else_fn", {{"a", tf::DT_FLOAT}}, {{"r", "Neg:y:0"}});
  FnNode(else_fn, "Neg", "Neg", {"a"});
  tf::FunctionDef* scale = Function(g, "scale3", {{"a", tf::DT_FLOAT}}, {{"b", "mul:z:0"}});
  FnConst(scale, "three", tf::DT_FLOAT, 3.f);
  FnNode(scale, "Mul", "mul", {"a", "three:output:0"});

  tf::NodeDef* w = g.Node("StatelessWhile", "loop", {"i0", "x", "n"});
  SetFn(w, "cond", "while_cond");
  SetFn(w, "body", "while_body");
  g.ConstI32("axis", {1}, {0});
  g.Node("Sum", "total", {"loop:1", "axis"});
  g.ConstF("ten", {}, {10});
  g.Node("Greater", "big", {"total", "ten"});
  tf::NodeDef* i = g.Node("StatelessIf", "y", {"big", "loop:1"});
  SetFn(i, "then_branch", "then_fn");
  SetFn(i, "else_branch", "else_fn");
  SetFn(g.Node("PartitionedCall", "s", {"y"}), "f", "scale3");
  return g;
}

}  // namespace ge::test
