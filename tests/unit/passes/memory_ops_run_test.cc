// The ops with memory semantics compiled and run (sink): an Assign writes
// the variable's memory, so a reader ordered after it by a control edge sees
// the new value; the optimize passes keep the writes.
#include "ge/ops/memory_semantics.h"
#include "tests/unit/passes/optimize_test_util.h"

namespace ge::test {
namespace {

Result<Floats> RunSink(std::unique_ptr<Graph> g, const Floats& x) {
  CompileOptions co;
  co.model_name = "tiny";
  co.verify_each_pass = true;
  GE_ASSIGN_OR_RETURN(Model model, Compile(std::move(g), co));
  LoadOptions lo;
  lo.mode = RunMode::kSink;
  GE_ASSIGN_OR_RETURN(auto loaded, LoadModel(model, lo));
  Floats out(static_cast<size_t>(loaded->outputs()[0].desc.NumElements()));
  std::vector<const void*> in{x.data()};
  std::vector<void*> outs{out.data()};
  GE_RETURN_IF_ERROR(loaded->Execute(in, outs));
  return out;
}

// var = Variable(init); Assign(var, x); y = var + 1 after the Assign.
TEST(MemoryOpsRun, ReaderAfterAssignSeesTheNewValue) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {10, 20}))});
  Node* assign = t.Op("Assign", "assign", {var, x});
  Node* y = t.Op("Add", "y", {var, t.Const("one", F32s({2}, {1, 1}))});
  t.g().AddControlEdge(assign, y);
  t.Output({y});
  auto out = RunSink(t.g().Clone(), {3, 4});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, (Floats{4, 5}));
}

TEST(MemoryOpsRun, AssignAddThenReadAndEveryRunStartsFromTheInitialValue) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {10, 20}))});
  Node* add = t.Op("AssignAdd", "acc", {var, x});
  t.Output({t.Op("Relu", "y", {add})});
  CompileOptions co;
  co.model_name = "tiny";
  auto model = Compile(t.g().Clone(), co);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  LoadOptions lo;
  lo.mode = RunMode::kSink;
  auto loaded = LoadModel(*model, lo);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  Floats in{1, 2}, out(2);
  for (int run = 0; run < 2; ++run) {
    std::vector<const void*> ins{in.data()};
    std::vector<void*> outs{out.data()};
    ASSERT_TRUE((*loaded)->Execute(ins, outs).ok());
    EXPECT_EQ(out, (Floats{11, 22})) << "run " << run;  // no variables segment: no state across runs
  }
}

TEST(MemoryOpsRun, OptimizePassesKeepWritesWhoseOutputIsUnused) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {10, 20}))});
  t.Op("Assign", "assign", {var, x});
  t.Op("Assign", "assign2", {var, x});  // CSE must not merge two writes
  t.Output({t.Op("Relu", "y", {x})});
  ASSERT_TRUE(t.RunPass(DeadCodeEliminationPass()).ok());
  ASSERT_TRUE(t.RunPass(CsePass()).ok());
  ASSERT_TRUE(t.RunPass(ConstantFoldingPass()).ok());
  EXPECT_EQ(t.Count("Assign"), 2);
  EXPECT_EQ(t.Count("Variable"), 1);
}

TEST(MemoryOpsRun, NoConstantFoldingAttributeIsHonoured) {
  TinyGraph t;
  Node* c = t.Const("c", F32s({2}, {1, -2}));
  Node* keep = t.Op("Relu", "keep", {c}, {{kAttrNoConstantFolding, true}});
  Node* folded = t.Op("Neg", "folded", {c});
  t.Output({t.Op("Add", "y", {keep, folded})});
  ASSERT_TRUE(t.RunPass(ConstantFoldingPass()).ok());
  EXPECT_EQ(t.Count("Relu"), 1);
  EXPECT_EQ(t.Count("Neg"), 0);
}

}  // namespace
}  // namespace ge::test
