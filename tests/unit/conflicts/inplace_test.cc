// inplace_support_check (reference 3.1.4) and the memory planner's in-place
// merge with the filters and the layout-conflict check of reference 3.4.
#include "compiler/memory/memory_planner.h"
#include "tests/unit/conflicts/layout_test_ops.h"

namespace ge::test {
namespace {

std::vector<int64_t> Marks(const Node* n) { return n->GetInts(kAttrInplaceSupportInputIndex); }

TEST(InplaceSupportCheck, MarksAnInputOnlyItsOwnProducerReads) {
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"));
  Node* b = t.Relu("b", a);
  t.Output({b});
  ASSERT_TRUE(t.RunPass(InplaceSupportCheckPass()).ok());
  EXPECT_EQ(Marks(b), (std::vector<int64_t>{0}));
  EXPECT_FALSE(a->HasAttr(kAttrInplaceSupportInputIndex));  // its input is the user's (Data)
}

TEST(InplaceSupportCheck, NotFromConstOrVariable) {
  LayoutGraph t;
  Node* c = t.Relu("c", t.Weight("w"));
  Node* var = t.Op("Variable", "var", {t.Weight("init")});
  Node* v = t.Relu("v", var);
  t.Output({c, v});
  ASSERT_TRUE(t.RunPass(InplaceSupportCheckPass()).ok());
  EXPECT_TRUE(Marks(c).empty());
  EXPECT_TRUE(Marks(v).empty());
}

TEST(InplaceSupportCheck, NotWhenTheProducerHasAnotherConsumer) {
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"));
  Node* b = t.Relu("b", a);
  Node* c = t.Op("Neg", "c", {a});
  t.Output({b, c});
  ASSERT_TRUE(t.RunPass(InplaceSupportCheckPass()).ok());
  EXPECT_TRUE(Marks(b).empty());
  EXPECT_TRUE(Marks(c).empty());
}

TEST(InplaceSupportCheck, OnlyInputsOfTheOutputsShapeAndType) {
  LayoutGraph t;
  Node* x = t.In("x");
  Node* a = t.Relu("a", x);                                       // [2,3]
  Node* b = t.Relu("b", t.Data("y", TensorDesc(DataType::kFloat32, {3})));  // [3], broadcast
  Node* s = t.Op("Add", "s", {a, b});
  Node* p = t.Relu("p", x);
  Node* q = t.Relu("q", x);
  Node* e = t.Op("Equal", "e", {p, q});  // bool output of f32 inputs
  t.Output({s, e});
  ASSERT_TRUE(t.RunPass(InplaceSupportCheckPass()).ok());
  EXPECT_EQ(Marks(s), (std::vector<int64_t>{0}));
  EXPECT_TRUE(Marks(e).empty());
}

TEST(InplaceSupportCheck, OnlySingleOutputNodes) {
  LayoutGraph t;
  Node* s = t.Op("TestContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
  Node* y = t.Op("Add", "y", {s, nullptr});
  ASSERT_TRUE(t.Edge(s, 1, y, 1).ok());
  t.Output({y});
  ASSERT_TRUE(t.RunPass(InplaceSupportCheckPass()).ok());
  EXPECT_TRUE(Marks(s).empty());
  EXPECT_TRUE(Marks(y).empty());  // s has two consumers
}

TEST(InplaceSupportCheck, InThePipelineAndSwitchable) {
  const auto names = StagePassNames("memory");
  EXPECT_NE(std::find(names.begin(), names.end(), "inplace_support_check"), names.end());
}

// ---- the planner (reference 3.4) ----

const BufferPlan& BufferOf(const MemoryPlan& p, const std::string& node) {
  for (const auto& b : p.buffers)
    if (b.node == node) return b;
  static BufferPlan none;
  ADD_FAILURE() << "no buffer for " << node;
  return none;
}

Result<MemoryPlan> Plan(LayoutGraph& t, memory::PlanOptions o = {}) {
  GE_RETURN_IF_ERROR(t.Infer());
  return memory::PlanMemory(t.g(), o);
}

TEST(PlannerInplace, MergesADyingInput) {
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"));
  t.Output({t.Op("Neg", "n", {t.Relu("b", a)})});
  auto p = Plan(t);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(BufferOf(*p, "b").symbol, BufferOf(*p, "a").symbol);
}

TEST(PlannerInplace, RefusesAMergeThatWouldConflict) {
  // a's memory is an RTS special type; b's output is the user's output:
  // merged, USER_MEMORY_OUTPUT and RTS_SPECIAL_TYPE_OUTPUT would share it.
  for (bool special : {false, true}) {
    LayoutGraph t;
    std::vector<std::pair<std::string, AttrValue>> attrs;
    if (special) attrs.push_back(OutType({2}));
    Node* a = t.Relu("a", t.In("x"), attrs);
    t.Output({t.Relu("b", a)});
    auto p = Plan(t);
    ASSERT_TRUE(p.ok()) << p.status().message();
    EXPECT_EQ(BufferOf(*p, "b").symbol == BufferOf(*p, "a").symbol, !special) << "special " << special;
  }
}

TEST(PlannerInplace, ReadFilterKeepsAVariable) {
  LayoutGraph t;
  Node* var = t.Op("Variable", "var", {t.Weight("init")});
  t.Output({t.Op("Neg", "n", {t.Relu("r", var)})});
  auto p = Plan(t);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_NE(BufferOf(*p, "r").symbol, BufferOf(*p, "var").symbol);
}

TEST(PlannerInplace, WriteFilterKeepsAContinuousInputsOwnLayout) {
  for (bool continuous : {false, true}) {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* b = t.Relu("b", a);
    t.Output({t.Op(continuous ? "TestContIn" : "Neg", "c", {b})});
    auto p = Plan(t);
    ASSERT_TRUE(p.ok()) << p.status().message();
    EXPECT_EQ(BufferOf(*p, "b").symbol == BufferOf(*p, "a").symbol, !continuous) << continuous;
  }
}

TEST(PlannerInplace, WithRequiresMarkOnlyMarkedInputsMerge) {
  for (bool marked : {false, true}) {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* b = t.Relu("b", a);
    t.Output({t.Op("Neg", "n", {b})});
    ASSERT_TRUE(t.Infer().ok());
    if (marked) {
      ASSERT_TRUE(InplaceSupportCheckPass().run(t.g(), PassContext{}).ok());
    }
    memory::PlanOptions o;
    o.inplace_requires_mark = true;
    auto p = memory::PlanMemory(t.g(), o);
    ASSERT_TRUE(p.ok()) << p.status().message();
    EXPECT_EQ(BufferOf(*p, "b").symbol == BufferOf(*p, "a").symbol, marked) << marked;
  }
}

TEST(PlannerInplace, TheLivenessRuleMergesWhereTheMarkCannot) {
  // a has two readers, the first done before b: the mark refuses (two
  // consumers), the planner's own rule merges b over a once both ran.
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"));
  Node* n = t.Op("Neg", "n", {a});
  Node* b = t.Op("Add", "b", {a, n});
  t.Output({t.Op("Neg", "m", {b})});
  ASSERT_TRUE(t.Infer().ok());
  ASSERT_TRUE(InplaceSupportCheckPass().run(t.g(), PassContext{}).ok());
  const std::vector<int64_t> marks = Marks(b);
  EXPECT_TRUE(std::find(marks.begin(), marks.end(), 0) == marks.end());
  auto p = memory::PlanMemory(t.g(), memory::PlanOptions{});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(BufferOf(*p, "b").symbol, BufferOf(*p, "a").symbol);
}

}  // namespace
}  // namespace ge::test
