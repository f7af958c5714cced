// The memory analyses on tiny graphs: reachability over data and control
// edges, symbols over reference outputs, and the anchor attributes.
#include "ge/analysis/anchor_attributes.h"
#include "ge/analysis/memory_symbols.h"
#include "ge/analysis/reachability.h"
#include "ge/ops/memory_semantics.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {
namespace {

using analysis::AnchorAttribute;

TEST(Reachability, DataAndControlEdgesOrderNodes) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* a = t.Op("Relu", "a", {x});
  Node* b = t.Op("Neg", "b", {x});
  Node* c = t.Op("Abs", "c", {a});
  t.Output({c, b});
  auto r = analysis::Reachability::Build(t.g());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->Reaches(x, c));
  EXPECT_FALSE(r->Reaches(c, x));
  EXPECT_FALSE(r->Ordered(b, c));  // two branches
  t.g().AddControlEdge(c, b);
  auto r2 = analysis::Reachability::Build(t.g());
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(r2->Reaches(a, b));  // a -> c -> (control) b
  EXPECT_TRUE(r2->Ordered(b, c));
}

TEST(Reachability, LongChainsAndTheirSideBranches) {
  TinyGraph t;
  Node* prev = t.Data("x", F32({2}));
  Node* first = prev;
  Node* mid = nullptr;
  for (int i = 0; i < 150; ++i) {
    prev = t.Op("Relu", "r" + std::to_string(i), {prev});
    if (i == 75) mid = prev;
  }
  // A side branch off the input, joined to the chain's middle by a control
  // edge only: its node reaches the chain's end, not its start.
  Node* side = t.Op("Neg", "side", {first});
  t.g().AddControlEdge(side, mid);
  t.Output({prev});
  auto r = analysis::Reachability::Build(t.g());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->Reaches(first, prev));
  EXPECT_FALSE(r->Reaches(prev, first));
  EXPECT_TRUE(r->Reaches(side, prev));
  EXPECT_FALSE(r->Reaches(side, t.g().FindNode("r10")));
  EXPECT_FALSE(r->Ordered(side, t.g().FindNode("r10")));
}

TEST(MemorySymbols, ReferenceChainsShareOneSymbolAndCopiesDoNot) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 2}));
  Node* relu = t.Op("Relu", "relu", {x});
  Node* ident = t.Op("Identity", "ident", {relu});
  Node* flat = t.Op("Flatten", "flat", {ident});
  Node* iso = t.Op("Identity", "iso", {relu}, {{kAttrMemoryIsolation, true}});
  t.Output({flat, iso});
  ASSERT_TRUE(t.Infer().ok());
  auto s = analysis::MemorySymbols::Build(t.g());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->SymbolOf(relu, 0), s->SymbolOf(flat, 0));
  EXPECT_NE(s->SymbolOf(relu, 0), s->SymbolOf(iso, 0));
  EXPECT_EQ(s->Root(flat, 0), (analysis::OutAnchor{relu, 0}));
  EXPECT_EQ(s->Anchors(s->SymbolOf(relu, 0)).size(), 3u);
  EXPECT_EQ(s->size(), 3u);  // x, relu's chain, iso
}

TEST(AnchorAttributes, FromPositionRegistryAndNodeAttributes) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {1, 2}))});
  Node* assign = t.Op("Assign", "assign", {var, x});
  Node* cat = t.Op("Concat", "cat", {assign, x}, {{"axis", int64_t{0}}});
  Node* split = t.Op("Split", "split", {cat}, {{"axis", int64_t{0}}}, 2);
  Node* relu = t.Op("Relu", "relu", {x}, {{"_input_memory_type", std::vector<int64_t>{1}}});
  t.Output({split, relu});
  using analysis::Has;
  EXPECT_TRUE(Has(analysis::OutputAttributes(*x, 0, true), AnchorAttribute::kUserMemoryInput));
  EXPECT_FALSE(Has(analysis::OutputAttributes(*x, 0, false), AnchorAttribute::kUserMemoryInput));
  EXPECT_TRUE(Has(analysis::OutputAttributes(*var, 0, true), AnchorAttribute::kImmutableAddressOutput));
  EXPECT_TRUE(Has(analysis::OutputAttributes(*assign, 0, true), AnchorAttribute::kReferenceOutput));
  EXPECT_TRUE(Has(analysis::InputAttributes(*cat, 0, true), AnchorAttribute::kContinuousInput));
  EXPECT_TRUE(Has(analysis::OutputAttributes(*split, 1, true), AnchorAttribute::kContinuousOutput));
  EXPECT_TRUE(Has(analysis::InputAttributes(*relu, 0, true), AnchorAttribute::kRtsSpecialTypeInput));
  EXPECT_TRUE(Has(analysis::InputAttributes(*t.g().OutputNode(), 0, true), AnchorAttribute::kUserMemoryOutput));
  EXPECT_EQ(analysis::OutputAttributes(*relu, 0, true), static_cast<uint32_t>(AnchorAttribute::kNormalOutput));
  EXPECT_EQ(analysis::AnchorAttributesString(analysis::OutputAttributes(*var, 0, true)), "IMMUTABLE_ADDRESS_OUTPUT");
}

}  // namespace
}  // namespace ge::test
