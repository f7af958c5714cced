// TF 1.x control flow is refused in one line naming the loop by its frame,
// by the conversion and by the pre-check, instead of a list of every
// Enter/Merge/Switch node or a cycle error on one of them.
#include "tf_test_util.h"

namespace ge::test {
namespace {

// i = 0; while i < 10: i += 1  (tf.while_loop as TF 1.x freezes it)
TfGraph WhileLoop() {
  TfGraph g;
  g.ConstF("zero", {}, {0});
  g.ConstF("ten", {}, {10});
  g.ConstF("one", {}, {1});
  SetS(g.Node("Enter", "while/Enter", {"zero"}), "frame_name", "while/while_context");
  g.Node("Merge", "while/Merge", {"while/Enter", "while/NextIteration"});
  g.Node("Less", "while/Less", {"while/Merge", "ten"});
  g.Node("LoopCond", "while/LoopCond", {"while/Less"});
  g.Node("Switch", "while/Switch", {"while/Merge", "while/LoopCond"});
  g.Node("Identity", "while/Identity", {"while/Switch:1"});
  g.Node("AddV2", "while/add", {"while/Identity", "one"});
  g.Node("NextIteration", "while/NextIteration", {"while/add"});
  g.Node("Exit", "while/Exit", {"while/Switch"});
  g.Node("Relu", "y", {"while/Exit"});
  return g;
}

TEST(TfControlFlow, AWhileLoopIsOneLineNamingItsFrame) {
  auto graph = Parse(WhileLoop());
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  const std::string& m = graph.status().message();
  EXPECT_NE(m.find("TF 1.x while loop 'while/while_context' (6 control-flow nodes) is not supported: ge has no "
                   "While/If yet"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
  EXPECT_EQ(m.find("cycle"), std::string::npos) << m;
}

TEST(TfControlFlow, ThePreCheckGivesTheLoopAsTheReason) {
  auto report = CheckTfBytes(WhileLoop().Bytes(), {}, "<test>");
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->unsupported.size(), 6u);
  for (const auto& u : report->unsupported)
    EXPECT_NE(u.reason.find("'while/while_context'"), std::string::npos) << u.name << ": " << u.reason;
}

TEST(TfControlFlow, ACondIsNamedAsAConditional) {
  TfGraph g;
  g.Placeholder("x", {2});
  g.Placeholder("p", {}, tf::DT_BOOL);
  g.Node("Switch", "cond/Switch", {"x", "p"});
  g.Node("Relu", "cond/a", {"cond/Switch:1"});
  g.Node("Neg", "cond/b", {"cond/Switch"});
  g.Node("Merge", "cond/Merge", {"cond/a", "cond/b"});
  auto graph = Parse(g);
  ASSERT_FALSE(graph.ok());
  EXPECT_NE(graph.status().message().find("TF 1.x conditional (Switch/Merge, tf.cond) (2 control-flow nodes)"),
            std::string::npos)
      << graph.status().message();
}

}  // namespace
}  // namespace ge::test
