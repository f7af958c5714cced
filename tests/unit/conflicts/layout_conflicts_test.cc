// Layout conflicts on tiny graphs (reference 3.3.2 / 3.3.3): one graph per
// always-conflicting pair, and for every registered checker a graph where it
// reports a conflict and, where its condition can fail, one where it does
// not. The anchor attributes come from the node attributes the analysis
// reads (_input_memory_type, _output_memory_type,
// _unsupported_address_refresh) and the test ops' registry flags.
#include "tests/unit/conflicts/layout_test_ops.h"

namespace ge::test {
namespace {

using analysis::AnchorAttribute;
using A = AnchorAttribute;

// Infers shapes and returns the conflicts.
std::vector<analysis::LayoutConflict> Analyse(LayoutGraph& t) {
  EXPECT_TRUE(t.Infer().ok());
  return LayoutConflictsOf(t.g());
}

// Exactly one conflict by `rule`, between attributes x and y (either
// order), isolating the given anchor; returns it.
void ExpectOne(const std::vector<analysis::LayoutConflict>& all, const std::string& rule, A x, A y,
               const Node* isolate_node, bool isolate_input, int isolate_index) {
  const auto found = ByRule(all, rule);
  ASSERT_EQ(found.size(), 1u) << Dump(all);
  const auto& c = found[0];
  EXPECT_TRUE((c.attr_a == x && c.attr_b == y) || (c.attr_a == y && c.attr_b == x)) << c.Describe();
  EXPECT_EQ(c.isolate.node, isolate_node) << c.Describe();
  EXPECT_EQ(c.isolate.input, isolate_input) << c.Describe();
  EXPECT_EQ(c.isolate.index, isolate_index) << c.Describe();
}

// ---- always conflicting (3.3.2) ----

TEST(LayoutAlwaysConflict, UserInputAndUnrefreshInput) {
  LayoutGraph t;
  Node* x = t.In("x");
  Node* r = t.Relu("r", x, {Unrefresh()});
  t.Output({r});
  ExpectOne(Analyse(t), "always_conflict", A::kUserMemoryInput, A::kUnsupportedAddressRefreshOperatorInput, r, true, 0);
}

TEST(LayoutAlwaysConflict, UserInputAndRtsSpecialInput) {
  LayoutGraph t;
  Node* r = t.Relu("r", t.In("x"), {InType({2})});
  t.Output({r});
  ExpectOne(Analyse(t), "always_conflict", A::kUserMemoryInput, A::kRtsSpecialTypeInput, r, true, 0);
}

TEST(LayoutAlwaysConflict, UserOutputAndRtsSpecialInput) {
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"));
  Node* b = t.Relu("b", a, {InType({2})});
  Node* out = t.Output({a, b});
  ExpectOne(Analyse(t), "always_conflict", A::kUserMemoryOutput, A::kRtsSpecialTypeInput, out, true, 0);
}

TEST(LayoutAlwaysConflict, UserOutputAndRtsSpecialOutput) {
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"), {OutType({2})});
  Node* out = t.Output({a});
  ExpectOne(Analyse(t), "always_conflict", A::kUserMemoryOutput, A::kRtsSpecialTypeOutput, out, true, 0);
}

TEST(LayoutAlwaysConflict, UserOutputAndContinuousOutput) {
  LayoutGraph t;
  Node* s = t.Op("TestContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
  Node* out = t.Output({s});
  ExpectOne(Analyse(t), "always_conflict", A::kUserMemoryOutput, A::kContinuousOutput, out, true, 0);
}

TEST(LayoutAlwaysConflict, UserOutputAndNoPaddingContinuousOutput) {
  LayoutGraph t;
  Node* s = t.Op("TestNpContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
  Node* out = t.Output({s});
  ExpectOne(Analyse(t), "always_conflict", A::kUserMemoryOutput, A::kNoPaddingContinuousOutput, out, true, 0);
}

TEST(LayoutAlwaysConflict, ImmutableOutputAndRtsSpecialInput) {
  LayoutGraph t;
  Node* r = t.Relu("r", t.Weight("w"), {InType({2})});
  t.Output({r});
  ExpectOne(Analyse(t), "always_conflict", A::kImmutableAddressOutput, A::kRtsSpecialTypeInput, r, true, 0);
}

TEST(LayoutAlwaysConflict, ImmutableOutputAndContinuousInput) {
  LayoutGraph t;
  Node* c = t.Op("TestContIn", "c", {t.Weight("w")});
  t.Output({c});
  ExpectOne(Analyse(t), "always_conflict", A::kImmutableAddressOutput, A::kContinuousInput, c, true, 0);
}

TEST(LayoutAlwaysConflict, ContinuousInputAndNoPaddingContinuousOutput) {
  LayoutGraph t;
  Node* s = t.Op("TestNpContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
  Node* c = t.Op("TestContIn", "c", {s, nullptr});
  ASSERT_TRUE(t.Edge(s, 1, c, 1).ok());
  t.Output({t.Relu("y", c)});
  const auto all = ByRule(Analyse(t), "always_conflict");
  ASSERT_EQ(all.size(), 2u) << Dump(all);  // both members of the block
  for (const auto& c : all) {
    EXPECT_EQ(c.attr_a, A::kContinuousInput);
    EXPECT_EQ(c.attr_b, A::kNoPaddingContinuousOutput);
    EXPECT_EQ(c.isolate.node, c.a.node);  // the continuous input takes the copy
    EXPECT_TRUE(c.isolate.input);
  }
}

TEST(LayoutAlwaysConflict, ContinuousOutputAndNoPaddingContinuousInput) {
  LayoutGraph t;
  Node* s = t.Op("TestContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
  Node* c = t.Op("TestNpContIn", "c", {s});
  t.Output({t.Relu("y", c)});
  ExpectOne(Analyse(t), "always_conflict", A::kContinuousOutput, A::kNoPaddingContinuousInput, c, true, 0);
}

// ---- always compatible ----

TEST(LayoutAlwaysCompatible, RtsSpecialInputOverANormalOutput) {
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"));
  t.Output({t.Relu("b", a, {InType({2})})});
  EXPECT_TRUE(Analyse(t).empty());
}

TEST(LayoutAlwaysCompatible, OneTensorTwiceAsUserOutput) {
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"));
  t.Output({a, a});
  EXPECT_TRUE(Analyse(t).empty());
}

TEST(LayoutAlwaysCompatible, UserInputStraightToUserOutput) {
  LayoutGraph t;
  t.Output({t.In("x")});
  EXPECT_TRUE(Analyse(t).empty());
}

TEST(LayoutAlwaysCompatible, AnOrdinaryChainHasNoConflict) {
  LayoutGraph t;
  Node* x = t.In("x");
  Node* v = t.Op("Identity", "v", {t.Relu("a", x)});
  t.Output({t.Relu("b", v), t.Op("Add", "s", {x, t.Weight("w")})});
  EXPECT_TRUE(Analyse(t).empty());
}

// ---- the checkers (3.3.3) ----

TEST(LayoutChecker, ContinuousInputAndContinuousInput) {
  {  // two blocks holding one tensor at different places
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* b = t.Relu("b", a);
    Node* c1 = t.Op("TestContIn", "c1", {a, b});
    Node* c2 = t.Op("TestContIn", "c2", {b, a});
    t.Output({c1, c2});
    const auto all = Analyse(t);
    EXPECT_EQ(ByRule(all, "continuous_input_and_continuous_input").size(), 2u) << Dump(all);
  }
  {  // one tensor twice in one block
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* c = t.Op("TestContIn", "c", {a, a});
    t.Output({c});
    ExpectOne(Analyse(t), "continuous_input_and_continuous_input", A::kContinuousInput, A::kContinuousInput, c, true,
              1);
  }
  {  // the same block twice: one layout serves both
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* b = t.Relu("b", a);
    t.Output({t.Op("TestContIn", "c1", {a, b}), t.Op("TestContIn", "c2", {a, b})});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
}

TEST(LayoutChecker, ContinuousOutputAndContinuousInput) {
  {  // the consumer reads the producer's block as it is
    LayoutGraph t;
    Node* s = t.Op("TestContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
    Node* c = t.Op("TestContIn", "c", {s, nullptr});
    ASSERT_TRUE(t.Edge(s, 1, c, 1).ok());
    t.Output({t.Relu("y", c)});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
  {  // swapped: the two ranges overlap incompatibly
    LayoutGraph t;
    Node* s = t.Op("TestContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
    Node* c = t.Op("TestContIn", "c", {nullptr, s});
    ASSERT_TRUE(t.Edge(s, 1, c, 0).ok());
    t.Output({t.Relu("y", c)});
    const auto all = Analyse(t);
    const auto found = ByRule(all, "continuous_output_and_continuous_input");
    ASSERT_EQ(found.size(), 2u) << Dump(all);
    for (const auto& f : found) EXPECT_EQ(f.isolate.node, c);
  }
}

TEST(LayoutChecker, ContinuousOutAndContinuousOut) {
  for (bool swapped : {false, true}) {
    LayoutGraph t;
    Node* s = t.Op("TestContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
    Node* v = t.Op("TestContOutView", "v", {nullptr, nullptr}, {}, 2);
    ASSERT_TRUE(t.Edge(s, swapped ? 1 : 0, v, 0).ok());
    ASSERT_TRUE(t.Edge(s, swapped ? 0 : 1, v, 1).ok());
    Node* y = t.Op("Add", "y", {v, nullptr});
    ASSERT_TRUE(t.Edge(v, 1, y, 1).ok());
    t.Output({y});
    const auto all = Analyse(t);
    const auto found = ByRule(all, "continuous_out_and_continuous_out");
    if (!swapped) {
      EXPECT_TRUE(all.empty()) << Dump(all);
    } else {
      ASSERT_EQ(found.size(), 2u) << Dump(all);
      EXPECT_EQ(found[0].isolate.node, v);  // the view, not the producer that owns the block
    }
  }
}

TEST(LayoutChecker, ContinuousAndRtsSpecialMemory) {
  {  // a special-memory tensor in a block of ordinary memory
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"), {OutType({2})});
    Node* b = t.Relu("b", a);
    Node* c = t.Op("TestContIn", "c", {a, b});
    t.Output({c});
    ExpectOne(Analyse(t), "continuous_in_out_and_rts_special_mem_in_out", A::kContinuousInput,
              A::kRtsSpecialTypeOutput, c, true, 0);
  }
  {  // the whole block in that memory type
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"), {OutType({2})});
    Node* b = t.Relu("b", a, {OutType({2})});
    t.Output({t.Op("TestContIn", "c", {a, b}, {InType({2, 2})})});
    const auto all = Analyse(t);
    EXPECT_TRUE(ByRule(all, "continuous_in_out_and_rts_special_mem_in_out").empty()) << Dump(all);
  }
  {  // an RTS special input reading a continuous output block of ordinary memory
    LayoutGraph t;
    Node* s = t.Op("TestContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
    Node* r = t.Relu("r", s, {InType({2})});
    Node* y = t.Op("Add", "y", {r, nullptr});
    ASSERT_TRUE(t.Edge(s, 1, y, 1).ok());
    t.Output({y});
    ExpectOne(Analyse(t), "continuous_in_out_and_rts_special_mem_in_out", A::kContinuousOutput,
              A::kRtsSpecialTypeInput, r, true, 0);
  }
}

TEST(LayoutChecker, UserInputAndContinuous) {
  {
    LayoutGraph t;
    Node* x = t.In("x");
    Node* c = t.Op("TestContIn", "c", {x, t.Relu("b", x)});
    t.Output({c});
    ExpectOne(Analyse(t), "user_in_and_continuous_in_out_checker", A::kUserMemoryInput, A::kContinuousInput, c, true,
              0);
  }
  {  // a block of one tensor is continuous wherever the user's buffer is
    LayoutGraph t;
    t.Output({t.Op("TestNpContIn", "c", {t.In("x")})});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
}

TEST(LayoutChecker, UserInputAndUnrefreshOutput) {
  LayoutGraph t;
  Node* x = t.In("x");
  Node* v = t.Op("Identity", "v", {x}, {Unrefresh()});
  t.Output({t.Relu("y", v)});
  const auto all = Analyse(t);
  const auto found = ByRule(all, "user_in_and_unrefresh_out_checker");
  ASSERT_EQ(found.size(), 1u) << Dump(all);
  EXPECT_EQ(found[0].isolate.node, v);  // the unrefresh node's side
  EXPECT_TRUE(found[0].isolate.input == false || found[0].isolate.index == 0);
}

TEST(LayoutChecker, UserInputAndRtsSpecialOutput) {
  {
    LayoutGraph t;
    Node* v = t.Op("Identity", "v", {t.In("x")}, {OutType({2})});
    t.Output({t.Relu("y", v)});
    const auto all = Analyse(t);
    ASSERT_EQ(ByRule(all, "user_in_and_rts_special_out_checker").size(), 1u) << Dump(all);
    EXPECT_EQ(ByRule(all, "user_in_and_rts_special_out_checker")[0].isolate.node, v);
  }
  {  // the user's input declared in that memory type
    LayoutGraph t;
    Node* x = t.In("x");
    x->SetAttr("_output_memory_type", std::vector<int64_t>{2});
    t.Output({t.Relu("y", t.Op("Identity", "v", {x}, {OutType({2})}))});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
}

TEST(LayoutChecker, UserOutputAndUnrefreshOutput) {
  LayoutGraph t;
  Node* v = t.Op("Identity", "v", {t.Relu("a", t.In("x"))}, {Unrefresh()});
  Node* out = t.Output({v});
  const auto all = Analyse(t);
  const auto found = ByRule(all, "user_out_and_unrefresh_out_checker");
  ASSERT_EQ(found.size(), 1u) << Dump(all);
  EXPECT_EQ(found[0].isolate.node, out);
}

TEST(LayoutChecker, UserOutputAndUnrefreshInput) {
  LayoutGraph t;
  Node* a = t.Relu("a", t.In("x"));
  Node* out = t.Output({a, t.Relu("r", a, {Unrefresh()})});
  ExpectOne(Analyse(t), "user_out_and_unrefresh_in_checker", A::kUserMemoryOutput,
            A::kUnsupportedAddressRefreshOperatorInput, out, true, 0);
}

TEST(LayoutChecker, UserOutputAndImmutableOutput) {
  LayoutGraph t;
  Node* out = t.Output({t.Relu("a", t.In("x")), t.Weight("w")});
  ExpectOne(Analyse(t), "user_out_and_immutable_out_checker", A::kUserMemoryOutput, A::kImmutableAddressOutput, out,
            true, 1);
}

TEST(LayoutChecker, UserOutputAndContinuousInput) {
  {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* out = t.Output({a, t.Op("TestContIn", "c", {a, t.Relu("b", a)})});
    ExpectOne(Analyse(t), "user_out_and_continuous_input", A::kUserMemoryOutput, A::kContinuousInput, out, true, 0);
  }
  {  // a block of one
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    t.Output({a, t.Op("TestNpContIn", "c", {a})});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
}

TEST(LayoutChecker, ImmutableOutputAndRtsSpecialOutput) {
  {
    LayoutGraph t;
    Node* v = t.Op("Identity", "v", {t.Weight("w")}, {OutType({2})});
    t.Output({t.Relu("y", v)});
    const auto all = Analyse(t);
    ASSERT_EQ(ByRule(all, "immutable_out_and_rts_specail_out_checker").size(), 1u) << Dump(all);
    EXPECT_EQ(ByRule(all, "immutable_out_and_rts_specail_out_checker")[0].isolate.node, v);
  }
  {  // the weight declared in that memory type
    LayoutGraph t;
    Node* w = t.Weight("w");
    w->SetAttr("_output_memory_type", std::vector<int64_t>{2});
    t.Output({t.Relu("y", t.Op("Identity", "v", {w}, {OutType({2})}))});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
}

TEST(LayoutChecker, ImmutableOutputAndNoPaddingContinuousInput) {
  {
    LayoutGraph t;
    Node* c = t.Op("TestNpContIn", "c", {t.Weight("w"), t.Relu("a", t.In("x"))});
    t.Output({c});
    ExpectOne(Analyse(t), "immutable_out_and_nopadding_continuous_in_checker", A::kImmutableAddressOutput,
              A::kNoPaddingContinuousInput, c, true, 0);
  }
  {
    LayoutGraph t;
    t.Output({t.Op("TestNpContIn", "c", {t.Weight("w")})});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
}

TEST(LayoutChecker, ImmutableOutputAndContinuousOutput) {
  {
    LayoutGraph t;
    Node* v = t.Op("TestContOutView", "v", {t.Weight("w1"), t.Weight("w2")}, {}, 2);
    Node* y = t.Op("Add", "y", {v, nullptr});
    ASSERT_TRUE(t.Edge(v, 1, y, 1).ok());
    t.Output({y});
    const auto all = Analyse(t);
    const auto found = ByRule(all, "immutable_out_and_continuous_out_checker");
    ASSERT_EQ(found.size(), 2u) << Dump(all);
    EXPECT_EQ(found[0].isolate.node, v);
  }
  {  // a block of one
    LayoutGraph t;
    t.Output({t.Relu("y", t.Op("TestContOutView1", "v", {t.Weight("w")}))});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
}

TEST(LayoutChecker, NoPaddingContinuousInputAndNoPaddingContinuousInput) {
  {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* c = t.Op("TestNpContIn", "c", {a, a});
    t.Output({c});
    ExpectOne(Analyse(t), "nopadding_continuous_input_and_nopadding_continuous_input", A::kNoPaddingContinuousInput,
              A::kNoPaddingContinuousInput, c, true, 1);
  }
  {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* b = t.Relu("b", a);
    t.Output({t.Op("TestNpContIn", "c1", {a, b}), t.Op("TestNpContIn", "c2", {a, b})});
    EXPECT_TRUE(Analyse(t).empty()) << Dump(Analyse(t));
  }
}

TEST(LayoutChecker, NoPaddingContinuousInputAndNoPaddingContinuousOutput) {
  for (bool swapped : {false, true}) {
    LayoutGraph t;
    Node* s = t.Op("TestNpContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
    Node* c = t.Op("TestNpContIn", "c", {nullptr, nullptr});
    ASSERT_TRUE(t.Edge(s, swapped ? 1 : 0, c, 0).ok());
    ASSERT_TRUE(t.Edge(s, swapped ? 0 : 1, c, 1).ok());
    t.Output({t.Relu("y", c)});
    const auto all = Analyse(t);
    if (!swapped) {
      EXPECT_TRUE(all.empty()) << Dump(all);
    } else {
      const auto found = ByRule(all, "nopadding_continuous_input_and_nopadding_continuous_out");
      ASSERT_EQ(found.size(), 2u) << Dump(all);
      EXPECT_EQ(found[0].isolate.node, c);
    }
  }
}

TEST(LayoutChecker, NoPaddingContinuousOutputAndNoPaddingContinuousOutput) {
  for (bool swapped : {false, true}) {
    LayoutGraph t;
    Node* s = t.Op("TestNpContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
    Node* v = t.Op("TestNpContOutView", "v", {nullptr, nullptr}, {}, 2);
    ASSERT_TRUE(t.Edge(s, swapped ? 1 : 0, v, 0).ok());
    ASSERT_TRUE(t.Edge(s, swapped ? 0 : 1, v, 1).ok());
    Node* y = t.Op("Add", "y", {v, nullptr});
    ASSERT_TRUE(t.Edge(v, 1, y, 1).ok());
    t.Output({y});
    const auto all = Analyse(t);
    if (!swapped) {
      EXPECT_TRUE(all.empty()) << Dump(all);
    } else {
      const auto found = ByRule(all, "nopadding_continuous_out_and_nopadding_continuous_out");
      ASSERT_EQ(found.size(), 2u) << Dump(all);
      EXPECT_EQ(found[0].isolate.node, v);
    }
  }
}

TEST(LayoutChecker, RtsSpecialInputAndRtsSpecialInput) {
  for (int64_t second : {2, 3}) {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"));
    Node* b = t.Relu("b", a, {InType({2})});
    Node* c = t.Relu("c", a, {InType({second})});
    t.Output({b, c});
    const auto all = ByRule(Analyse(t), "rts_special_in_and_rts_special_in_checker");
    EXPECT_EQ(all.size(), second == 2 ? 0u : 1u) << Dump(all);
  }
}

TEST(LayoutChecker, RtsSpecialInputAndRtsSpecialOutput) {
  for (int64_t in_type : {2, 3}) {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"), {OutType({2})});
    Node* b = t.Relu("b", a, {InType({in_type})});
    t.Output({b});
    const auto all = Analyse(t);
    if (in_type == 2) {
      EXPECT_TRUE(all.empty()) << Dump(all);
    } else {
      ExpectOne(all, "rts_special_in_and_rts_special_out_checker", A::kRtsSpecialTypeInput, A::kRtsSpecialTypeOutput,
                b, true, 0);
    }
  }
}

TEST(LayoutChecker, RtsSpecialOutputAndRtsSpecialOutput) {
  for (int64_t view_type : {2, 3}) {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"), {OutType({2})});
    Node* v = t.Op("Identity", "v", {a}, {OutType({view_type})});
    t.Output({t.Relu("y", v)});
    const auto all = Analyse(t);
    if (view_type == 2) {
      EXPECT_TRUE(all.empty()) << Dump(all);
    } else {
      const auto found = ByRule(all, "rts_special_out_and_rts_special_out_checker");
      ASSERT_EQ(found.size(), 1u) << Dump(all);
      EXPECT_EQ(found[0].isolate.node, v);
    }
  }
}

TEST(LayoutChecker, UnrefreshInputWithASpecialAttribute) {
  for (bool user_output : {false, true}) {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"), {OutType({2})});
    Node* r = t.Relu("r", a, {Unrefresh(), InType({2})});
    if (user_output) t.Output({a, r});
    else t.Output({r});
    const auto found = ByRule(Analyse(t), "unrefresh_in_checker");
    // Fixed memory: the op's load-time address stays right. The user's
    // buffer: rebound every run, the op would keep the old one.
    if (!user_output) {
      EXPECT_TRUE(found.empty()) << Dump(found);
    } else {
      ASSERT_FALSE(found.empty());
      EXPECT_EQ(found[0].isolate.node, r);
    }
  }
}

TEST(LayoutChecker, UnrefreshOutputWithASpecialAttribute) {
  for (bool user_output : {false, true}) {
    LayoutGraph t;
    Node* a = t.Relu("a", t.In("x"), {OutType({2})});
    Node* v = t.Op("Identity", "v", {a}, {Unrefresh(), OutType({2})});
    t.Output({user_output ? v : t.Relu("y", v)});
    const auto found = ByRule(Analyse(t), "unrefresh_out_checker");
    if (!user_output) {
      EXPECT_TRUE(found.empty()) << Dump(found);
    } else {
      ASSERT_FALSE(found.empty());
      EXPECT_EQ(found[0].isolate.node, v);
    }
  }
}

TEST(LayoutConflicts, SubgraphDataAndNetOutputAreNotUserMemory) {
  LayoutGraph t;
  Node* out = t.Output({t.Relu("a", t.In("x")), t.Weight("w")});
  ASSERT_TRUE(t.Infer().ok());
  (void)out;
  EXPECT_FALSE(LayoutConflictsOf(t.g(), true).empty());
  EXPECT_TRUE(LayoutConflictsOf(t.g(), false).empty());
}

}  // namespace
}  // namespace ge::test
