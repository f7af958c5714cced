// memory_rw_conflict (reference 3.2): one tiny graph per cell of the
// decision matrix that inserts an Identity, and graphs where nothing may be
// inserted.
#include "compiler/memory_conflict/rw_types.h"
#include "tests/unit/passes/memory_conflict_test_util.h"

namespace ge::test {
namespace {

using mem_conflict::InputRw;
using mem_conflict::OutputRw;

TEST(MemoryRwConflict, TheMatrixIsTheReferenceTable) {
  const OutputRw outs[] = {OutputRw::kReadOnlyConst, OutputRw::kReadOnly, OutputRw::kSoftRead, OutputRw::kWriteable};
  const InputRw ins[] = {InputRw::kReadOnly, InputRw::kWriteable, InputRw::kScopeWriteable};
  const bool want[4][3] = {{false, true, true}, {false, false, true}, {false, false, false}, {false, false, true}};
  for (int o = 0; o < 4; ++o)
    for (int i = 0; i < 3; ++i) EXPECT_EQ(mem_conflict::NeedsIdentity(outs[o], ins[i]), want[o][i]) << o << "," << i;
}

TEST(MemoryRwConflict, ConstIntoWriteableGetsACopy) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* c = t.Const("c", F32s({2}, {1, 2}));
  Node* assign = t.Op("Assign", "assign", {c, x});
  t.Output({t.Op("Relu", "y", {assign})});
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  Node* id = IsolationBefore(assign, 0);
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->InputNode(0), c);
  EXPECT_TRUE(id->GetBool(kAttrCannotBeDeleted));
  EXPECT_TRUE(id->GetBool(kAttrNoConstantFolding));
  EXPECT_EQ(t.Count("Identity"), 1);
}

TEST(MemoryRwConflict, ConstIntoScopeWriteableGetsACopy) {
  TinyGraph t;
  Node* c = t.Const("c", F32s({2}, {1, 2}));
  Node* ar = t.Op("HcomAllReduce", "ar", {c});
  t.Output({t.Op("Relu", "y", {ar})});
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  EXPECT_NE(IsolationBefore(ar, 0), nullptr);
}

TEST(MemoryRwConflict, SharedOutputIntoScopeWriteableGetsACopy) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* a = t.Op("Relu", "a", {x});
  Node* ar = t.Op("HcomAllReduce", "ar", {a});
  Node* other = t.Op("Neg", "other", {a});
  t.Output({ar, other});
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  EXPECT_NE(IsolationBefore(ar, 0), nullptr);
  EXPECT_EQ(other->InputNode(0), a);  // the reader keeps the original
  EXPECT_EQ(t.Count("Identity"), 1);
}

TEST(MemoryRwConflict, SharedThroughAViewStillCounts) {
  // a's memory reaches the collective through a Reshape: two readers of one
  // symbol, so the collective still gets a copy.
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* a = t.Op("Relu", "a", {x});
  Node* v = t.Op("Identity", "view", {a});
  Node* ar = t.Op("HcomAllReduce", "ar", {v});
  t.Output({ar, t.Op("Neg", "other", {a})});
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  EXPECT_NE(IsolationBefore(ar, 0), nullptr);
}

TEST(MemoryRwConflict, WriteableOutputIntoScopeWriteableGetsACopy) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {1, 2}))});
  Node* assign = t.Op("Assign", "assign", {var, x});
  Node* ar = t.Op("HcomAllReduce", "ar", {assign});
  t.Output({ar});
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  EXPECT_NE(IsolationBefore(ar, 0), nullptr);
  EXPECT_EQ(assign->InputNode(0), var);  // read-only x writeable: the write is meant
  EXPECT_EQ(t.Count("Identity"), 1);
}

TEST(MemoryRwConflict, NothingWhereTheMatrixSaysNothing) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* c = t.Const("c", F32s({2}, {1, 2}));
  Node* var = t.Op("Variable", "var", {c});                     // const into read-only
  Node* assign = t.Op("Assign", "assign", {var, x});            // read-only (2 readers) into writeable
  Node* r = t.Op("Relu", "r", {var});
  Node* single = t.Op("Neg", "single", {x});
  Node* ar = t.Op("HcomAllReduce", "ar", {single});             // soft-read into scope-writeable
  Node* y = t.Op("Add", "y", {assign, t.Op("Add", "z", {r, ar})});  // writeable into read-only
  t.Output({y});
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  EXPECT_EQ(t.Count("Identity"), 0);
}

TEST(MemoryRwConflict, SkipRwConflictIsHonoured) {
  TinyGraph t;
  Node* c = t.Const("c", F32s({2}, {1, 2}));
  Node* ar = t.Op("HcomAllReduce", "ar", {c}, {{kAttrSkipRwConflict, true}});
  t.Output({ar});
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  EXPECT_EQ(t.Count("Identity"), 0);
}

TEST(MemoryRwConflict, InferenceGraphsAreLeftAlone) {
  TinyGraph t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* r = t.Op("Relu", "r", {x});
  Node* a = t.Op("Add", "a", {r, t.Const("b", F32s({1}, {1}))});
  t.Output({t.Op("Mul", "m", {a, r})});
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  EXPECT_EQ(t.g().num_nodes(), 6u);
}

TEST(MemoryRwConflict, TheCopyIsRealAndSurvivesTheOptimizer) {
  // The collective writes its input in place: without the copy, `other`
  // would read the reduced tensor. On one rank the values agree anyway, so
  // this checks what the plan does: the copy has memory of its own.
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* a = t.Op("Relu", "a", {x});
  t.Output({t.Op("HcomAllReduce", "ar", {a}), t.Op("Neg", "other", {a})});
  auto r = CompileAndRun(t.Clone(), {{1, -2}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->counts["Identity"], 1);
  EXPECT_EQ(r->outputs[0], (Floats{1, 0}));
  std::map<std::string, int64_t> symbol;
  for (const BufferPlan& b : r->model.memory.buffers) symbol[b.node] = b.symbol;
  std::string copy;
  for (Node* n : r->model.graph->nodes())
    if (n->type() == "Identity") copy = n->name();
  EXPECT_NE(symbol.at(copy), symbol.at("a"));
}


// If nested `depth` deep, both branches of every level the next level, each
// If fed twice by its graph's Data; the innermost branch runs one Neg on its
// Data, writing it when `writes`. The top If's input is scope-writeable
// exactly when that Neg writes, and the answer comes once per subgraph (the
// recomputation per input and branch was 4^depth).
std::unique_ptr<Graph> NestedIfs(int depth, bool writes) {
  const TensorDesc f32(DataType::kFloat32, {2});
  auto level = [&](Graph& g) {
    Node* d = g.AddNode(op::kData, "arg", 0, 1);
    d->SetAttr("index", int64_t{0});
    d->output_desc(0) = f32;
    return d;
  };
  auto inner = std::make_shared<Graph>("leaf");
  Node* arg = level(*inner);
  Node* neg = inner->AddNode("Neg", "neg", 1, 1);
  neg->SetAttr(kAttrInputMutable, writes);
  neg->output_desc(0) = f32;
  Node* out = inner->AddNode(op::kNetOutput, "out", 1, 0);
  EXPECT_TRUE(inner->AddEdge(arg, 0, neg, 0).ok() && inner->AddEdge(neg, 0, out, 0).ok());
  auto wrap = [&](Graph* g, const std::shared_ptr<Graph>& branch) {
    Node* x = level(*g);
    Node* iff = g->AddNode("If", "if", 2, 1);
    iff->output_desc(0) = f32;
    iff->subgraphs()["then_branch"] = branch;
    iff->subgraphs()["else_branch"] = branch;
    Node* o = g->AddNode(op::kNetOutput, "out", 1, 0);
    EXPECT_TRUE(g->AddEdge(x, 0, iff, 0).ok() && g->AddEdge(x, 0, iff, 1).ok() && g->AddEdge(iff, 0, o, 0).ok());
  };
  for (int k = 1; k < depth; ++k) {
    auto g = std::make_shared<Graph>("level" + std::to_string(k));
    wrap(g.get(), inner);
    inner = g;
  }
  auto top = std::make_unique<Graph>("top");
  wrap(top.get(), inner);
  return top;
}

TEST(MemoryRwConflict, ScopeWriteableSeenThroughDeepNesting) {
  for (const bool writes : {true, false}) {
    std::unique_ptr<Graph> g = NestedIfs(40, writes);
    Node* iff = g->FindNode("if");
    ASSERT_NE(iff, nullptr);
    mem_conflict::SubgraphWrites cache;
    EXPECT_EQ(mem_conflict::InputRwOf(*iff, 1, cache), writes ? InputRw::kScopeWriteable : InputRw::kReadOnly);
  }
}

}  // namespace
}  // namespace ge::test
