// GraphLint W18888: an Assign to a variable that another branch reads with
// no control edge is reported with both nodes; the control edge clears it.
#include "ge/lint/graph_checks.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {
namespace {

struct VarGraph {
  TinyGraph t;
  Node *var, *assign, *reader;
  VarGraph() {
    Node* x = t.Data("x", F32({2}));
    var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {1, 2}))});
    assign = t.Op("Assign", "assign", {var, x});
    reader = t.Op("Relu", "reader", {var});
    t.Output({reader});
    EXPECT_TRUE(t.Infer().ok());
  }
  lint::Diagnostics Lint() {
    lint::Diagnostics d;
    lint::CheckReadWriteOrder(t.g(), &d);
    return d;
  }
};

TEST(GraphLintRw, UnorderedAssignAndReadIsW18888NamingBoth) {
  VarGraph v;
  const lint::Diagnostics d = v.Lint();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "W18888");
  EXPECT_EQ(d[0].severity, lint::Severity::kWarning);
  EXPECT_EQ(d[0].nodes, (std::vector<std::string>{"assign", "reader", "var"}));
  EXPECT_NE(d[0].message.find("var:0"), std::string::npos) << d[0].message;
  EXPECT_EQ(d[0].graph, "");
}

TEST(GraphLintRw, AControlEdgeEitherWayClearsIt) {
  VarGraph before;
  before.t.g().AddControlEdge(before.assign, before.reader);
  EXPECT_TRUE(before.Lint().empty());
  VarGraph after;
  after.t.g().AddControlEdge(after.reader, after.assign);
  EXPECT_TRUE(after.Lint().empty());
}

TEST(GraphLintRw, TwoUnorderedWritersAreReportedOnce) {
  VarGraph v;
  Node* y = v.t.Data("y", F32({2}));
  Node* second = v.t.Op("Assign", "second", {v.var, y});
  v.t.g().AddControlEdge(v.assign, v.reader);
  v.t.g().AddControlEdge(second, v.reader);
  const lint::Diagnostics d = v.Lint();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].nodes[0] == "assign" ? d[0].nodes[1] : d[0].nodes[0], "second");
  EXPECT_NE(d[0].message.find("writes it"), std::string::npos);
}

TEST(GraphLintRw, ReadsThroughAViewCountAndShapeReadsDoNot) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {1, 2}))});
  t.Op("Assign", "assign", {var, x});
  Node* view = t.Op("Identity", "view", {var});
  Node* shape = t.Op("Shape", "shape", {var});
  t.Output({t.Op("Relu", "reader", {view}), shape});
  ASSERT_TRUE(t.Infer().ok());
  lint::Diagnostics d;
  lint::CheckReadWriteOrder(t.g(), &d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].nodes[1], "reader");
}

TEST(GraphLintRw, GraphsWithoutWritersAreClean) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* a = t.Op("Relu", "a", {x});
  t.Output({t.Op("Neg", "b", {a}), t.Op("Abs", "c", {a})});
  lint::Diagnostics d;
  lint::CheckReadWriteOrder(t.g(), &d);
  EXPECT_TRUE(d.empty());
}

}  // namespace
}  // namespace ge::test
