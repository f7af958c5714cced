// The registry as a whole: every op of the built-in set is there with its
// arity, defaults and memory semantics, and InferNode enforces the arity.
#include <map>

#include "ops_test_util.h"
#include "ge/ops/memory_semantics.h"

namespace ge::test {
namespace {

const OpDef& Def(const std::string& type) {
  const OpDef* d = OpRegistry::Global().Find(type);
  EXPECT_NE(d, nullptr) << type;
  static const OpDef kNone;
  return d ? *d : kNone;
}

TEST(OpRegistry, EveryBuiltinOpIsRegisteredWithInference) {
  const std::vector<std::string> types = {
      "Conv", "ConvTranspose", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
      "BatchNormalization", "LayerNormalization", "InstanceNormalization", "Softmax", "LogSoftmax", "Gemm",
      "MatMul", "Gelu", "Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh", "Erf", "Sqrt", "Exp", "Log", "Neg", "Abs",
      "Reciprocal", "Floor", "Ceil", "Not", "HardSigmoid", "Identity", "Cast", "Add", "Sub", "Mul", "Div", "Pow",
      "Max", "Min", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Where", "Shape",
      "Size", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Expand", "ConstantOfShape", "Range", "Tile",
      "Transpose", "Concat", "Split", "Slice", "Gather", "Pad", "ReduceMean", "ReduceSum", "ReduceMax",
      "ReduceMin", "ReduceProd", "ReduceL2", "ReduceSumSquare", "ArgMax", "ArgMin", "Const", "Round", "Sign",
      "Elu", "Selu", "Softplus", "Softsign", "Mod", "Sum", "GatherElements", "Trilu", "NegativeLogLikelihoodLoss",
      "SoftmaxCrossEntropyLoss"};
  for (const auto& t : types) {
    const OpDef* d = OpRegistry::Global().Find(t);
    ASSERT_NE(d, nullptr) << t;
    EXPECT_EQ(d->type, t);
    EXPECT_TRUE(static_cast<bool>(d->infer)) << t;
  }
  EXPECT_NE(OpRegistry::Global().Find("Data"), nullptr);
  EXPECT_NE(OpRegistry::Global().Find("NetOutput"), nullptr);
  EXPECT_EQ(OpRegistry::Global().Find("NoSuchOp"), nullptr);
}

TEST(OpRegistry, ArityIsPrecise) {
  auto arity = [](const std::string& t) {
    const OpDef& d = Def(t);
    return std::vector<int>{d.min_inputs, d.max_inputs, d.min_outputs, d.max_outputs};
  };
  EXPECT_EQ(arity("Concat"), (std::vector<int>{1, -1, 1, 1}));
  EXPECT_EQ(arity("Split"), (std::vector<int>{1, 2, 1, -1}));
  EXPECT_EQ(arity("Clip"), (std::vector<int>{1, 3, 1, 1}));
  EXPECT_EQ(arity("Conv"), (std::vector<int>{2, 5, 1, 1}));  // 3: a fused_sum residual, 4: an input scale
  EXPECT_EQ(arity("Gemm"), (std::vector<int>{2, 3, 1, 1}));
  EXPECT_EQ(arity("Slice"), (std::vector<int>{3, 5, 1, 1}));
  EXPECT_EQ(arity("MaxPool"), (std::vector<int>{1, 1, 1, 2}));
  EXPECT_EQ(arity("BatchNormalization"), (std::vector<int>{5, 5, 1, 5}));
  EXPECT_EQ(arity("Where"), (std::vector<int>{3, 3, 1, 1}));
  EXPECT_EQ(arity("SoftmaxCrossEntropyLoss"), (std::vector<int>{2, 3, 1, 2}));  // output 1: log_prob
  EXPECT_EQ(arity("Max"), (std::vector<int>{1, -1, 1, 1}));
  EXPECT_EQ(arity("Add"), (std::vector<int>{2, 2, 1, 1}));
  EXPECT_EQ(arity("Relu"), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(arity("Data"), (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(arity("Const"), (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(arity("NetOutput"), (std::vector<int>{1, -1, 0, 0}));
}

TEST(OpRegistry, MemorySemantics) {
  for (const char* t : {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"}) {
    EXPECT_EQ(Def(t).memory.reference_outputs, std::vector<int>{0}) << t;
    EXPECT_TRUE(Def(t).memory.inplace_outputs.empty()) << t;
  }
  for (const char* t : {"Relu", "Sigmoid", "Gelu", "Clip", "Exp", "Not", "Add", "Mul", "Pow", "Max", "And"})
    EXPECT_EQ(Def(t).memory.inplace_outputs, std::vector<int>{0}) << t;
  // Different output element size: no in-place.
  for (const char* t : {"Cast", "Equal", "Less", "Conv", "MatMul", "Transpose"})
    EXPECT_TRUE(Def(t).memory.inplace_outputs.empty()) << t;
  // A Conv's fused_sum residual (input 3) is the one input it may overwrite.
  EXPECT_EQ(Def("Conv").memory.InplaceInput(0), 3);
  EXPECT_EQ(Def("MatMul").memory.InplaceInput(0), -1);
  EXPECT_EQ(Def("Relu").memory.InplaceInput(0), 0);
  // Sum accumulates input by input: in place it could read what it wrote.
  EXPECT_TRUE(Def("Sum").memory.inplace_outputs.empty());
  for (const char* t : {"Round", "Sign", "Elu", "Selu", "Softplus", "Softsign", "Mod"})
    EXPECT_EQ(Def(t).memory.inplace_outputs, std::vector<int>{0}) << t;
  EXPECT_TRUE(Def("Concat").memory.continuous_input);
  EXPECT_FALSE(Def("Concat").memory.continuous_output);
  EXPECT_TRUE(Def("Split").memory.continuous_output);
  EXPECT_FALSE(Def("Split").memory.continuous_input);
  EXPECT_TRUE(Def("Conv").memory.reference_outputs.empty());
}

// The inputs whose values decide an op's output shape: the v2 runtime infers
// those shapes per call from them, so a declaration dropped here would leave
// a stale shape at run time.
TEST(OpRegistry, ValueInputsAreDeclared) {
  const std::map<std::string, std::vector<int>> want = {
      {"Reshape", {1}}, {"Squeeze", {1}}, {"Unsqueeze", {1}}, {"Expand", {1}}, {"Tile", {1}},
      {"ConstantOfShape", {0}}, {"Range", {0, 1, 2}}, {"Slice", {1, 2, 3, 4}}, {"Pad", {1, 3}},
      {"Split", {1}}, {"TopK", {1}}, {"Resize", {1, 2, 3}}, {"Compress", {1}}, {"ReduceSum", {1}},
      {"ReduceMean", {1}}, {"ReduceMax", {1}}, {"ReduceMin", {1}}, {"ReduceProd", {1}}, {"ReduceL1", {1}},
      {"ReduceL2", {1}}, {"ReduceSumSquare", {1}}, {"ReduceLogSum", {1}}, {"ReduceLogSumExp", {1}}};
  for (const auto& [type, inputs] : want) EXPECT_EQ(Def(type).value_inputs, inputs) << type;
  // Values read only to check them (CumSum's axis, Gather's indices,
  // Dropout's training_mode) or not at all do not decide a shape.
  for (const char* t : {"CumSum", "Gather", "GatherElements", "Dropout", "Trilu", "Add", "Conv", "NonZero"})
    EXPECT_TRUE(Def(t).value_inputs.empty()) << t;
}

TEST(OpRegistry, ComputedShapes) {
  for (const char* t : {"NonZero", "NonMaxSuppression", "Unique", "Compress"})
    EXPECT_TRUE(Def(t).computed_shape) << t;
  for (const char* t : {"Reshape", "TopK", "Relu"}) EXPECT_FALSE(Def(t).computed_shape) << t;
}

TEST(OpRegistry, AttrDefaultsAreOnnxs) {
  auto get = [](const std::string& t, const std::string& k) -> AttrValue {
    const auto& m = Def(t).attr_defaults;
    auto it = m.find(k);
    EXPECT_NE(it, m.end()) << t << "." << k;
    return it == m.end() ? AttrValue{} : it->second;
  };
  EXPECT_EQ(std::get<int64_t>(get("Conv", "group")), 1);
  EXPECT_EQ(std::get<std::string>(get("Conv", "auto_pad")), "NOTSET");
  EXPECT_FLOAT_EQ(std::get<float>(get("LeakyRelu", "alpha")), 0.01f);
  EXPECT_FLOAT_EQ(std::get<float>(get("HardSigmoid", "alpha")), 0.2f);
  EXPECT_FLOAT_EQ(std::get<float>(get("BatchNormalization", "epsilon")), 1e-5f);
  EXPECT_EQ(std::get<int64_t>(get("Flatten", "axis")), 1);
  EXPECT_EQ(std::get<int64_t>(get("ReduceMean", "keepdims")), 1);
  EXPECT_EQ(std::get<int64_t>(get("ReduceSum", "noop_with_empty_axes")), 0);
  EXPECT_EQ(std::get<int64_t>(get("MaxPool", "ceil_mode")), 0);
  EXPECT_FLOAT_EQ(std::get<float>(get("Gemm", "beta")), 1.0f);
  EXPECT_EQ(std::get<int64_t>(get("LayerNormalization", "axis")), -1);
  EXPECT_EQ(std::get<Tensor>(get("ConstantOfShape", "value")).desc().dtype, DataType::kFloat32);
  EXPECT_EQ(std::get<int64_t>(get("Trilu", "upper")), 1);
  EXPECT_EQ(std::get<std::string>(get("NegativeLogLikelihoodLoss", "reduction")), "mean");
  EXPECT_EQ(std::get<std::string>(get("SoftmaxCrossEntropyLoss", "reduction")), "mean");
  // Opset-dependent: no fixed default.
  EXPECT_EQ(Def("Softmax").attr_defaults.count("axis"), 0u);
}

TEST(InferNode, TooFewInputsNamesTheNode) {
  OpGraph g("Add", 1, "add1");
  g.In(F32({2}));
  EXPECT_TRUE(FailsWith(g, {"node add1 (Add)", "takes 2..2 inputs, has 1"}));
}

TEST(InferNode, TooManyInputs) {
  OpGraph g("Gemm");
  g.In(F32({2, 3})).In(F32({3, 4})).In(F32({4})).In(F32({4}));
  EXPECT_TRUE(FailsWith(g, {"takes 2..3 inputs, has 4"}));
}

TEST(InferNode, MissingRequiredInputBeforeAPresentOne) {
  OpGraph g("Conv");
  g.Absent().In(F32({4, 3, 3, 3}));
  EXPECT_TRUE(FailsWith(g, {"required input 0 is missing"}));
}

TEST(InferNode, TooManyOutputs) {
  OpGraph g("Relu", 2);
  g.In(F32({2}));
  EXPECT_TRUE(FailsWith(g, {"has 2 outputs, expected 1..1"}));
}

TEST(InferNode, TrailingAbsentOptionalInputsDoNotCount) {
  OpGraph g("Clip");
  g.In(F32({2, 2})).Absent().Absent();
  EXPECT_EQ(InferOut(g), "f32[2,2]");
  OpGraph h("Clip");
  h.In(F32({2, 2})).Absent().Const(F32Scalar(6));
  EXPECT_EQ(InferOut(h), "f32[2,2]");
}

TEST(InferNode, UnknownOpTypeIsUnsupported) {
  OpGraph g("NoSuchOp", 1, "weird");
  g.In(F32({2}));
  Status s = g.Infer();
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("weird (NoSuchOp)"), std::string::npos) << s.message();
}

TEST(InferNode, KeepsTheOutputFormatAPassChose) {
  OpGraph g("Relu");
  g.In(F32({1, 16, 4, 4}));
  g.node()->output_desc(0).format = Format::kBlocked;
  ASSERT_TRUE(g.Infer().ok());
  EXPECT_EQ(g.node()->output_desc(0), TensorDesc(DataType::kFloat32, {1, 16, 4, 4}, Format::kBlocked));
}

}  // namespace
}  // namespace ge::test

namespace ge {
namespace {

TEST(MemorySemanticsTest, TheMemoryOpsDeclareWhatThePassesRead) {
  Graph g;
  Node* init = g.AddNode(op::kConst, "init", 0, 1);
  Node* var = g.AddNode("Variable", "var", 1, 1);
  Node* assign = g.AddNode("Assign", "assign", 2, 1);
  Node* ident = g.AddNode("Identity", "ident", 1, 1);
  Node* hcom = g.AddNode("HcomAllReduce", "ar", 1, 1);
  Node* relu = g.AddNode("Relu", "relu", 1, 1);
  ASSERT_TRUE(g.AddEdge(init, 0, var, 0).ok());
  ASSERT_TRUE(g.AddEdge(var, 0, assign, 0).ok());
  ASSERT_TRUE(g.AddEdge(assign, 0, ident, 0).ok());
  EXPECT_EQ(InputMutabilityOf(*assign, 0), InputMutability::kWriteable);
  EXPECT_EQ(InputMutabilityOf(*assign, 1), InputMutability::kReadOnly);
  EXPECT_EQ(InputMutabilityOf(*hcom, 0), InputMutability::kScopeWriteable);
  EXPECT_TRUE(SemanticsOf(*hcom).continuous_input);
  EXPECT_EQ(InputMutabilityOf(*relu, 0), InputMutability::kReadOnly);
  relu->SetAttr(kAttrInputMutable, true);  // the node-level attribute raises it
  EXPECT_EQ(InputMutabilityOf(*relu, 0), InputMutability::kScopeWriteable);
  EXPECT_TRUE(IsAtomicOutput(*g.AddNode("ScatterAdd", "sa", 2, 1), 0));
  EXPECT_TRUE(IsVariable(*var));
  EXPECT_TRUE(HasMemoryEffects(*assign));
  EXPECT_FALSE(HasMemoryEffects(*ident));
  // ref_var_src_var_name: through Assign and Identity back to the variable.
  EXPECT_EQ(ReferencedVariable(*ident, 0), var);
  MarkIsolation(*ident);  // an isolation copy has memory of its own
  EXPECT_EQ(ReferencedVariable(*ident, 0), nullptr);
  EXPECT_TRUE(ident->GetBool(kAttrCannotBeDeleted));
  EXPECT_TRUE(ident->GetBool(kAttrNoConstantFolding));
}

}  // namespace
}  // namespace ge
