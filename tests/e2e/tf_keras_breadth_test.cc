// TensorFlow breadth through the tools: two hand-built frozen graphs — a
// Keras-style CNN whose batch norm is the unfused tf.nn.batch_normalization
// chain, and a mix of the elementwise, logic and reduction ops — converted
// with ge-atc --framework 3, run with ge-run in v2 and sink modes, and
// compared with numpy goldens that tf_keras_breadth_golden.py computes from
// the same inputs and constants (written here as .npy). Also: the pre-check
// lists only the ops still unsupported among the new ones.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/e2e/tf_golden_fixture.h"

namespace ge::test {
namespace {

class TfKerasBreadthTest : public TfGoldenTest {
 protected:
  TfKerasBreadthTest() : TfGoldenTest("tf_keras_breadth_golden.py") {}
};

// Keras Conv2D + BatchNormalization (frozen unfused: tf.nn.batch_normalization)
// + ReLU + MaxPooling2D + GlobalAveragePooling2D + Dense(softmax).
TEST_F(TfKerasBreadthTest, CnnWithUnfusedBatchNormMatchesNumpy) {
  TfGraph g;
  g.Placeholder("x", {1, 8, 8, 3});
  Save("x", DataType::kFloat32, {1, 8, 8, 3}, Ramp(192, 0.1f, -1.0f));
  Const(g, "w", tf::DT_FLOAT, DataType::kFloat32, {3, 3, 3, 4}, Ramp(108, 0.05f, -0.5f, 5, 19));
  auto* conv = g.Node("Conv2D", "conv", {"x", "w"});
  SetS(conv, "padding", "SAME");
  SetList(conv, "strides", {1, 1, 1, 1});
  Const(g, "mean", tf::DT_FLOAT, DataType::kFloat32, {4}, Floats{0.1f, -0.2f, 0.3f, 0.0f});
  Const(g, "var", tf::DT_FLOAT, DataType::kFloat32, {4}, Floats{0.5f, 1.5f, 0.25f, 2.0f});
  Const(g, "gamma", tf::DT_FLOAT, DataType::kFloat32, {4}, Floats{1.0f, 0.5f, 2.0f, -1.0f});
  Const(g, "beta", tf::DT_FLOAT, DataType::kFloat32, {4}, Floats{0.0f, 0.1f, -0.2f, 0.3f});
  Const(g, "eps", tf::DT_FLOAT, DataType::kFloat32, {}, Floats{0.001f});
  g.Node("AddV2", "bn/add", {"var", "eps"});
  g.Node("Rsqrt", "bn/Rsqrt", {"bn/add"});
  g.Node("Mul", "bn/mul", {"bn/Rsqrt", "gamma"});
  g.Node("Mul", "bn/mul_1", {"conv", "bn/mul"});
  g.Node("Mul", "bn/mul_2", {"mean", "bn/mul"});
  g.Node("Sub", "bn/sub", {"beta", "bn/mul_2"});
  g.Node("AddV2", "bn/add_1", {"bn/mul_1", "bn/sub"});
  g.Node("Relu", "features", {"bn/add_1"});
  auto* pool = g.Node("MaxPool", "pool", {"features"});
  SetS(pool, "padding", "VALID");
  SetList(pool, "ksize", {1, 2, 2, 1});
  SetList(pool, "strides", {1, 2, 2, 1});
  g.ConstI32("gap/axes", {2}, {1, 2});
  g.Node("Mean", "gap", {"pool", "gap/axes"});
  Const(g, "dense_w", tf::DT_FLOAT, DataType::kFloat32, {4, 3}, Ramp(12, 0.2f, -1.0f, 5, 11));
  Const(g, "dense_b", tf::DT_FLOAT, DataType::kFloat32, {3}, Floats{0.1f, 0.0f, -0.1f});
  g.Node("MatMul", "dense", {"gap", "dense_w"});
  g.Node("BiasAdd", "dense/bias", {"dense", "dense_b"});
  g.Node("Softmax", "probs", {"dense/bias"});
  ConvertRunCompare(g, "keras_cnn", {"x"}, {"features", "probs"});
}

// Every new elementwise, logic and reduction mapper in one graph (the golden
// script spells out the same formulas in numpy).
TfGraph MixGraph() {
  TfGraph g;
  g.Placeholder("x", {2, 3, 4});
  g.Placeholder("i", {2, 3, 4}, tf::DT_INT32);
  g.ConstF("one", {}, {1});
  g.ConstF("zero", {}, {0});
  g.ConstF("two", {}, {2});
  g.Node("Abs", "abs", {"x"});
  g.Node("AddV2", "pos", {"abs", "one"});
  const std::vector<std::pair<std::string, std::vector<std::string>>> terms = {
      {"Round", {"x"}},     {"Sign", {"x"}},        {"Elu", {"x"}},       {"Selu", {"x"}},
      {"Softplus", {"x"}},  {"Softsign", {"x"}},    {"LeakyRelu", {"x"}}, {"Square", {"x"}},
      {"Rsqrt", {"pos"}},   {"SquaredDifference", {"x", "cv"}},           {"Pow", {"pos", "pw"}},
      {"FloorMod", {"x", "cm"}},                    {"FloorDiv", {"x", "cm"}},
      {"Erf", {"x"}},       {"Floor", {"x"}},       {"Ceil", {"x"}},      {"Reciprocal", {"pos"}},
      {"Inv", {"pos"}}};
  auto* addn = g.Node("AddN", "mix", {});
  for (size_t k = 0; k < terms.size(); ++k) {
    const std::string name = "t" + std::to_string(k) + "_" + terms[k].first;
    tf::NodeDef* t = g.Node(terms[k].first, name, {});
    for (const auto& in : terms[k].second) t->add_input(in);
    addn->add_input(name);
  }
  SetI(addn, "N", static_cast<int64_t>(terms.size()));
  g.Node("Greater", "gt0", {"x", "zero"});
  g.Node("Less", "lt2", {"x", "two"});
  g.Node("LogicalAnd", "both", {"gt0", "lt2"});
  g.Node("Neg", "neg", {"mix"});
  g.Node("SelectV2", "selected", {"both", "mix", "neg"});
  g.ConstI32("hw", {2}, {1, 2});
  g.Node("Any", "rows_any", {"both", "hw"});
  g.Node("Select", "rows", {"rows_any", "x", "t7_Square"});
  g.Node("NotEqual", "fractional", {"t14_Floor", "t15_Ceil"});
  g.Node("Less", "lt0", {"x", "zero"});
  g.Node("LogicalOr", "fractional_or_negative", {"fractional", "lt0"});
  g.ConstI32("last", {}, {2});
  SetB(g.Node("All", "all", {"fractional_or_negative", "last"}), "keep_dims", true);
  g.Node("ArgMax", "argmax", {"mix", "last"});
  g.ConstI32("mid", {}, {1});
  SetType(g.Node("ArgMin", "argmin", {"x", "mid"}), "output_type", tf::DT_INT32);
  // Integers: FloorMod, TruncateMod, Mod, FloorDiv and the comparisons.
  for (auto [op, name, a, b] : std::vector<std::array<std::string, 4>>{{"FloorMod", "im", "i", "jc"},
                                                                       {"TruncateMod", "tm", "i", "jc"},
                                                                       {"Mod", "md", "i", "jc"},
                                                                       {"FloorDiv", "idiv", "i", "jc"},
                                                                       {"Mul", "tm10", "tm", "ten"},
                                                                       {"Mul", "idiv100", "idiv", "hundred"},
                                                                       {"LessEqual", "le", "im", "tm"},
                                                                       {"GreaterEqual", "ge", "idiv", "minus1"},
                                                                       {"LogicalAnd", "and1", "le", "ge"},
                                                                       {"Equal", "eq", "im", "tm"},
                                                                       {"Less", "neg_i", "i", "izero"},
                                                                       {"LogicalAnd", "and2", "eq", "nonneg"},
                                                                       {"Greater", "gt5", "i", "five"},
                                                                       {"GreaterEqual", "ge7", "i", "seven"},
                                                                       {"LogicalAnd", "and3", "gt5", "ge7"},
                                                                       {"LogicalOr", "or1", "and1", "and2"},
                                                                       {"LogicalOr", "ilogic", "or1", "and3"}})
    SetType(g.Node(op, name, {a, b}), "T", tf::DT_INT32);
  g.Node("LogicalNot", "nonneg", {"neg_i"});
  for (auto [name, v] : std::vector<std::pair<std::string, int32_t>>{
           {"ten", 10}, {"hundred", 100}, {"minus1", -1}, {"izero", 0}, {"five", 5}, {"seven", 7}})
    g.ConstI32(name, {}, {v});
  auto* isum = g.Node("AddN", "isum", {"im", "tm10", "idiv100", "md"});
  SetType(isum, "T", tf::DT_INT32);
  SetI(isum, "N", 4);
  return g;
}

TEST_F(TfKerasBreadthTest, ElementwiseMixMatchesNumpy) {
  TfGraph g = MixGraph();
  std::vector<float> x(24);
  for (size_t k = 0; k < x.size(); ++k) x[k] = (static_cast<float>((k * 11) % 24) - 12.0f) / 4;  // halves included
  Save("x", DataType::kFloat32, {2, 3, 4}, x);
  std::vector<int32_t> i(24);
  for (size_t k = 0; k < i.size(); ++k) i[k] = static_cast<int32_t>((k * 7) % 19) - 9;
  Save("i", DataType::kInt32, {2, 3, 4}, i);
  Const(g, "cv", tf::DT_FLOAT, DataType::kFloat32, {4}, Floats{0.5f, -1, 2, 0});
  Const(g, "pw", tf::DT_FLOAT, DataType::kFloat32, {4}, Floats{0.5f, 2, -1, 3});
  Const(g, "cm", tf::DT_FLOAT, DataType::kFloat32, {4}, Floats{1.5f, -2, 0.75f, 3});
  Const(g, "jc", tf::DT_INT32, DataType::kInt32, {4}, std::vector<int32_t>{3, -3, 4, -5});
  ConvertRunCompare(g, "mix", {"x", "i"},
                    {"mix", "selected", "rows", "all", "argmax", "argmin", "isum", "ilogic"});
}

// ge-atc --mode 3 still lists every unsupported node at once: the new ops
// pass, two ops outside the table are both named.
TEST_F(TfKerasBreadthTest, PrecheckNamesOnlyTheOpsStillUnsupported) {
  TfGraph g;
  g.Placeholder("x", {2, 3});
  g.Node("Softplus", "sp", {"x"});
  g.Node("Erfinv", "mystery/first", {"sp"});
  g.Node("Round", "round", {"mystery/first"});
  g.Node("Bucketize", "mystery/second", {"round"});
  WriteFileBytes(Path("bad.pb"), g.Bytes());
  ToolResult check = Run("ge-atc", {"--mode", "3", "--model", Path("bad.pb"), "--framework", "3", "--json",
                                    Path("report.json")});
  ExpectOneErrorLine(check, "ge-atc", {"2 unsupported", "mystery/first (Erfinv)", "mystery/second (Bucketize)"});
  const auto report = nlohmann::json::parse(ReadFileBytes(Path("report.json")));
  ASSERT_EQ(report["unsupported"].size(), 2u) << report.dump(2);
  EXPECT_EQ(report["unsupported"][0]["op_type"], "Erfinv");
  EXPECT_EQ(report["unsupported"][1]["op_type"], "Bucketize");
}

}  // namespace
}  // namespace ge::test
