// atomic_addr_clean (reference 3.1.5): where the clean nodes go, and that
// the atomic ops accumulate from zero in sink and v2, every run and every
// loop iteration.
#include "tests/unit/passes/memory_conflict_test_util.h"

namespace ge::test {
namespace {

Node* Indices(TinyGraph& t, const std::string& name, std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return t.Const(name, Tensor::FromVector(DataType::kInt64, {n}, std::move(v)));
}

Node* Scatter(TinyGraph& t, const std::string& name, Node* idx, Node* upd, int64_t rows) {
  return t.Op("ScatterAdd", name, {idx, upd}, {{"rows", rows}});
}

// The node feeding `n`'s accumulator input, or nullptr.
Node* CleanOf(Node* n) {
  Node* src = n->num_inputs() > 2 ? n->InputNode(2) : nullptr;
  return src && src->type() == "AtomicAddrClean" ? src : nullptr;
}

Result<std::vector<Floats>> CompileAndRunTwice(std::unique_ptr<Graph> g, RunMode mode, const std::vector<Floats>& inputs,
                                std::vector<std::string> disabled = {}, int runs = 2) {
  CompileOptions co;
  co.model_name = "tiny";
  co.verify_each_pass = true;
  co.disabled_passes = std::move(disabled);
  GE_ASSIGN_OR_RETURN(Model model, Compile(std::move(g), co));
  GE_ASSIGN_OR_RETURN(auto loaded, LoadModel(model, mode));
  std::vector<Floats> out(loaded->outputs().size());
  for (int r = 0; r < runs; ++r) {  // the second run sees the memory the first left
    std::vector<const void*> in;
    for (const Floats& f : inputs) in.push_back(f.data());
    std::vector<void*> outs;
    for (size_t j = 0; j < out.size(); ++j) {
      out[j].assign(static_cast<size_t>(loaded->outputs()[j].desc.NumElements()), -7.f);
      outs.push_back(out[j].data());
    }
    GE_RETURN_IF_ERROR(loaded->Execute(in, outs));
  }
  return out;
}

// sa1 -> Relu, sa2 -> Relu: neither feeds the output directly.
TinyGraph TwoScatters(bool second_to_output) {
  TinyGraph t;
  Node* x = t.Data("x", F32({3, 2}));
  Node* sa1 = Scatter(t, "sa1", Indices(t, "i1", {2, 0, 2}), x, 3);
  Node* sa2 = Scatter(t, "sa2", Indices(t, "i2", {1, 1, 0}), x, 2);
  t.Output({t.Op("Relu", "y1", {sa1}), second_to_output ? sa2 : t.Op("Relu", "y2", {sa2})});
  return t;
}

TEST(AtomicAddrClean, OneCleanNodeAtTheHeadOfAnAcyclicGraph) {
  TinyGraph t = TwoScatters(false);
  ASSERT_TRUE(t.RunPass(AtomicAddrCleanPass()).ok());
  EXPECT_EQ(t.Count("AtomicAddrClean"), 1);
  Node* clean = t.Find("AtomicAddrClean");
  ASSERT_NE(clean, nullptr);
  EXPECT_EQ(clean->num_inputs(), 0u);
  EXPECT_EQ(clean->num_outputs(), 2u);
  EXPECT_EQ(CleanOf(t.g().FindNode("sa1")), clean);
  EXPECT_EQ(CleanOf(t.g().FindNode("sa2")), clean);
  EXPECT_TRUE(clean->GetBool(kAttrCannotBeDeleted));
  EXPECT_TRUE(clean->GetBool(kAttrNoConstantFolding));
  // The outputs are the atomic ops' outputs: their dtype and dims.
  EXPECT_EQ(clean->output_desc(0).dims, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(clean->output_desc(1).dims, (std::vector<int64_t>{2, 2}));
  // Run again: everything is cleaned already.
  ASSERT_TRUE(t.RunPass(AtomicAddrCleanPass()).ok());
  EXPECT_EQ(t.Count("AtomicAddrClean"), 1);
}

TEST(AtomicAddrClean, AnAtomicOpFeedingTheOutputGetsACleanNodeOfItsOwn) {
  TinyGraph t = TwoScatters(true);
  ASSERT_TRUE(t.RunPass(AtomicAddrCleanPass()).ok());
  EXPECT_EQ(t.Count("AtomicAddrClean"), 2);
  Node* c1 = CleanOf(t.g().FindNode("sa1"));
  Node* c2 = CleanOf(t.g().FindNode("sa2"));
  ASSERT_TRUE(c1 && c2);
  EXPECT_NE(c1, c2);
  EXPECT_EQ(c1->num_outputs(), 1u);
  EXPECT_EQ(c2->name(), "sa2_atomic_clean");
}

TEST(AtomicAddrClean, AtomicOpsAccumulateFromZeroEveryRunInBothModes) {
  const Floats x{1, 2, 3, 4, 5, 6};
  const Floats y1{3, 4, 0, 0, 6, 8}, y2{5, 6, 4, 6};  // rows 2,0,2 and 1,1,0 of x summed
  for (bool to_output : {false, true})
    for (RunMode mode : {RunMode::kSink, RunMode::kV2})
      for (bool disabled : {false, true}) {
        SCOPED_TRACE(std::string(to_output ? "to output" : "via Relu") + (mode == RunMode::kSink ? " sink" : " v2") +
                     (disabled ? " pass off" : ""));
        TinyGraph t = TwoScatters(to_output);
        auto out = CompileAndRunTwice(t.Clone(), mode, {x}, disabled ? std::vector<std::string>{"atomic_addr_clean"} : std::vector<std::string>{});
        ASSERT_TRUE(out.ok()) << out.status().ToString();
        ASSERT_EQ(out->size(), 2u);
        EXPECT_EQ((*out)[0], y1);
        EXPECT_EQ((*out)[1], y2);
      }
}

// A Loop whose body scatters twice: v <- (rows of v summed into row 0) +
// (rows summed into row 1), so each row becomes the column sums. Memory not
// cleaned between iterations would add the previous iteration's sums.
TinyGraph ScatterLoop() {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({2, 2}));
  Node* sa1 = Scatter(body, "sa1", Indices(body, "i1", {0, 0}), v, 2);
  Node* sa2 = Scatter(body, "sa2", Indices(body, "i2", {1, 1}), v, 2);
  body.Output({body.Op("Identity", "cond_out", {c}), body.Op("Add", "next", {sa1, sa2})});
  EXPECT_TRUE(body.Infer().ok());
  TinyGraph t;
  Node* m = t.Const("M", Tensor::FromVector(DataType::kInt64, {}, std::vector<int64_t>{3}));
  Node* loop = t.Op("Loop", "loop", {m, nullptr, t.Data("v0", F32({2, 2}))});
  loop->subgraphs()["body"] = std::shared_ptr<Graph>(body.Clone());
  t.Output({loop}, {"v"});
  return t;
}

TEST(AtomicAddrClean, InALoopBodyEachAtomicOpGetsItsOwnCleanNode) {
  TinyGraph t = ScatterLoop();
  ASSERT_TRUE(t.RunPass(AtomicAddrCleanPass()).ok());
  EXPECT_EQ(t.Count("AtomicAddrClean"), 0);
  const Graph& body = *t.g().FindNode("loop")->subgraphs().at("body");
  int cleans = 0;
  for (Node* n : body.nodes())
    if (n->type() == "AtomicAddrClean") {
      ++cleans;
      EXPECT_EQ(n->num_outputs(), 1u);
    }
  EXPECT_EQ(cleans, 2);
  EXPECT_NE(CleanOf(body.FindNode("sa1")), CleanOf(body.FindNode("sa2")));
}

TEST(AtomicAddrClean, ALoopBodyAccumulatesFromZeroEveryIteration) {
  // v0 = [[1,2],[3,4]]: column sums (4,6), then (8,12), then (16,24).
  const Floats expected{16, 24, 16, 24};
  for (RunMode mode : {RunMode::kSink, RunMode::kV2}) {
    SCOPED_TRACE(mode == RunMode::kSink ? "sink" : "v2");
    TinyGraph t = ScatterLoop();
    auto out = CompileAndRunTwice(t.Clone(), mode, {{1, 2, 3, 4}});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ((*out)[0], expected);
  }
}

TEST(AtomicAddrClean, OnlyOutputsOfUnknownDimsAreLeftToTheKernel) {
  for (bool known_row : {true, false}) {
    TinyGraph t;
    Node* x = t.Data("x", F32({-1, known_row ? 2 : -1}));
    Node* idx = t.Data("idx", TensorDesc(DataType::kInt64, {-1}));
    t.Output({t.Op("Relu", "y", {Scatter(t, "sa", idx, x, 3)})});
    ASSERT_TRUE(t.RunPass(AtomicAddrCleanPass()).ok());
    // rows fixes the first dim: [3, 2] is static and cleaned, [3, ?] is not.
    EXPECT_EQ(t.Count("AtomicAddrClean"), known_row ? 1 : 0);
  }
}

}  // namespace
}  // namespace ge::test
