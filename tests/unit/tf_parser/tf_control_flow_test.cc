// TF control flow → If / Loop: TF 1.x frames and conds (rewritten into
// functional While/If first), TF 2's functional ops with their library,
// dynamic_rnn's TensorArrays, and one clear error for each malformed shape.
#include "tests/common/refusal.h"
#include "tf_control_flow_graphs.h"

namespace ge::test {
namespace {

const Graph* SubgraphOf(const Graph& g, const std::string& type, const std::string& name) {
  for (Node* n : g.nodes())
    if (n->type() == type) return n->subgraphs().at(name).get();
  return nullptr;
}

ParseOptions CfOuts(std::vector<std::string> names) {
  ParseOptions o;
  o.out_nodes = std::move(names);
  return o;
}

HostValue ScalarI32(int32_t v) { return Host<int32_t>({}, {v}); }

TEST(TfControlFlow, AWhileFrameBecomesOneLoop) {
  auto graph = Parse(CounterLoop(), CfOuts({"while/Exit", "while/Exit_1"}));
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ(CountOps(**graph, "Loop"), 1);
  for (const char* gone : {"Enter", "Merge", "Switch", "NextIteration", "Exit", "LoopCond"})
    EXPECT_EQ(CountOps(**graph, gone), 0) << gone;
  // The cond once on the initial values, outside; the body computes the
  // next values and the cond on them. n and x (constant Enters) are captures.
  EXPECT_EQ(CountOps(**graph, "Less"), 1);
  const Graph* body = SubgraphOf(**graph, "Loop", "body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(CountOps(*body, "Less"), 1);
  EXPECT_EQ(body->InputNodes().size(), 6u);  // iteration, cond, i, acc, n, x
  for (Node* n : (*graph)->nodes())
    if (n->type() == "Loop") {
      EXPECT_EQ(n->GetInt("_captures"), 2);
    }
}

TEST(TfControlFlow, ACounterLoopRunsItsTripCount) {
  const ParseOptions o = CfOuts({"while/Exit", "while/Exit_1"});
  for (int32_t n : {0, 2, 5}) {
    auto out = RunTfDynamic(CounterLoop(), {ScalarI32(n), Host<float>({2}, {1.f, -0.5f})}, o);
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].as<int32_t>(), std::vector<int32_t>{n});
    const float k = static_cast<float>((1 << (n + 1)) - 1);  // acc = x * (2^(n+1) - 1)
    ExpectNear((*out)[1].f(), {k, -0.5f * k});
  }
}

TEST(TfControlFlow, ATfCondBecomesOneIfAndRunsBothBranches) {
  auto graph = Parse(Cond());
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ(CountOps(**graph, "If"), 1);
  EXPECT_EQ(CountOps(**graph, "Switch") + CountOps(**graph, "Merge"), 0);
  auto then_out = RunTfDynamic(Cond(), {Host<float>({3}, {1, -2, 3}), Host<float>({3}, {5, 5, 5})});
  ASSERT_TRUE(then_out.ok()) << then_out.status().message();
  ExpectNear((*then_out)[0].f(), {2, 0, 6});
  auto else_out = RunTfDynamic(Cond(), {Host<float>({3}, {-1, -2, 0.5f}), Host<float>({3}, {1, 2, 3})});
  ASSERT_TRUE(else_out.ok()) << else_out.status().message();
  ExpectNear((*else_out)[0].f(), {0, 0, -3.5f});
}

TEST(TfControlFlow, ACondInsideALoopBodyNests) {
  ParseOptions o;
  o.out_nodes = {"while/Exit_1"};
  auto graph = Parse(CondInLoop(), o);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  const Graph* body = SubgraphOf(**graph, "Loop", "body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(CountOps(*body, "If"), 1);
  for (int32_t n : {1, 4}) {
    auto out = RunTfDynamic(CondInLoop(), {ScalarI32(n), Host<float>({2}, {1, 3})}, o);
    ASSERT_TRUE(out.ok()) << out.status().message();
    Floats acc = {1, 3};
    for (int i = 0; i < n; ++i)
      for (float& a : acc) a = i < 2 ? a + 1 : a * 2;
    ExpectNear((*out)[0].f(), acc);
  }
}

Floats RnnReference(const Floats& x, const Floats& w, const Floats& b, Floats* state) {
  // x [2, 4, 4] batch-major; h [2, 3]; outputs [2, 4, 3].
  Floats h(6, 0.f), out(24);
  for (int t = 0; t < 4; ++t) {
    Floats next(6);
    for (int n = 0; n < 2; ++n)
      for (int o = 0; o < 3; ++o) {
        double acc = b[o];
        for (int i = 0; i < 4; ++i) acc += x[(n * 4 + t) * 4 + i] * w[i * 3 + o];
        for (int i = 0; i < 3; ++i) acc += h[n * 3 + i] * w[(4 + i) * 3 + o];
        next[n * 3 + o] = static_cast<float>(std::tanh(acc));
        out[(n * 4 + t) * 3 + o] = next[n * 3 + o];
      }
    h = next;
  }
  *state = h;
  return out;
}

TEST(TfControlFlow, DynamicRnnTensorArraysBecomeAGatherAndAScanOutput) {
  const Floats w = Iota(21, 0.05f, -0.5f), b = {0.1f, -0.1f, 0.05f}, x = Iota(32, 0.1f, -1.f);
  ParseOptions o;
  o.out_nodes = {"outputs", "state"};
  auto graph = Parse(DynamicRnn(w, b), o);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  const Graph* body = SubgraphOf(**graph, "Loop", "body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(CountOps(*body, "Gather"), 1);  // the read of x_t
  auto out = RunTfDynamic(DynamicRnn(w, b), {Host<float>({2, 4, 4}, x)}, o);
  ASSERT_TRUE(out.ok()) << out.status().message();
  Floats state;
  const Floats want = RnnReference(x, w, b, &state);
  EXPECT_EQ((*out)[0].dims, (Ints{2, 4, 3}));
  ExpectNear((*out)[0].f(), want);
  ExpectNear((*out)[1].f(), state);
}

TEST(TfControlFlow, FunctionalWhileIfAndPartitionedCallConvert) {
  ParseOptions o;
  o.out_nodes = {"y", "s"};
  auto graph = Parse(Functional(), o);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ(CountOps(**graph, "Loop"), 1);
  EXPECT_EQ(CountOps(**graph, "If"), 1);
  EXPECT_EQ(CountOps(**graph, "PartitionedCall"), 0);  // inlined
  const Graph* body = SubgraphOf(**graph, "Loop", "body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->InputNodes().size(), 5u);  // iteration, cond, i, acc, n (captured: the body returns it)
  for (int32_t n : {2, 5}) {
    const Floats x = {1.f, 2.f};
    auto out = RunTfDynamic(Functional(), {Host<float>({2}, x), ScalarI32(n)}, o);
    ASSERT_TRUE(out.ok()) << out.status().message();
    Floats acc = x;
    for (int i = 0; i < n; ++i)
      for (float& a : acc) a = a * 1.5f + 1.f;
    Floats y = acc;
    const bool big = acc[0] + acc[1] > 10;
    for (float& v : y) v = big ? std::max(v - 10.f, 0.f) : -v;
    Floats s = y;
    for (float& v : s) v *= 3;
    ExpectNear((*out)[0].f(), y);
    ExpectNear((*out)[1].f(), s);
  }
}

// ---- malformed input: one error naming the node, never a crash ----

void ExpectCfError(const TfGraph& g, StatusCode code, const std::string& part, const ParseOptions& o = {}) {
  auto graph = Parse(g, o);
  ASSERT_TRUE(Refused(graph, code, part));
  const std::string& m = graph.status().message();
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
}

TEST(TfControlFlow, AMergeWithoutNextIterationIsNamed) {
  TfGraph g = CounterLoop();
  for (auto& n : *g.def().mutable_node())
    if (n.name() == "while/Merge") n.set_input(1, "i0");
  ExpectCfError(g, StatusCode::kInvalidArgument,
                "while/Merge (Merge): is a Merge of loop 'while/while_context' without a NextIteration input",
                CfOuts({"while/Exit_1"}));
}

TEST(TfControlFlow, AnExitWithoutSwitchIsNamed) {
  TfGraph g = CounterLoop();
  for (auto& n : *g.def().mutable_node())
    if (n.name() == "while/Exit_1") n.set_input(0, "while/Identity_1");
  ExpectCfError(g, StatusCode::kInvalidArgument,
                "while/Exit_1 (Exit): is an Exit of loop 'while/while_context' that does not read output 0 of one "
                "of its Switches",
                CfOuts({"while/Exit_1"}));
}

TEST(TfControlFlow, AMergeOfNoBranchesIsNamed) {
  TfGraph g;
  g.Placeholder("x", {2});
  g.Placeholder("y", {2});
  g.Node("Merge", "m", {"x", "y"});
  ExpectCfError(g, StatusCode::kUnsupported, "m (Merge): does not merge the two branches of one tf.cond");
}

TEST(TfControlFlow, AnUnknownFunctionIsNamed) {
  TfGraph g = Functional();
  for (auto& n : *g.def().mutable_node())
    if (n.name() == "loop") SetFn(&n, "body", "no_such_body");
  ExpectCfError(g, StatusCode::kUnsupported,
                "loop (StatelessWhile): the graph's library has no function 'no_such_body'", CfOuts({"y"}));
}

TEST(TfControlFlow, RecursionIsNamed) {
  TfGraph g;
  g.Placeholder("x", {2});
  tf::FunctionDef* f = Function(g, "f", {{"a", tf::DT_FLOAT}}, {{"b", "call:output:0"}});
  SetFn(FnNode(f, "PartitionedCall", "call", {"a"}), "f", "f");
  SetFn(g.Node("PartitionedCall", "y", {"x"}), "f", "f");
  ExpectCfError(g, StatusCode::kInvalidArgument, "calls function 'f' recursively (f -> f)");
}

TEST(TfControlFlow, UnsupportedOpsInFunctionsAreListedByThePreCheck) {
  TfGraph g;
  g.Placeholder("x", {2});
  tf::FunctionDef* f = Function(g, "f", {{"a", tf::DT_FLOAT}}, {{"b", "odd:y:0"}});
  FnNode(f, "Erfinv", "odd", {"a"});
  SetFn(g.Node("PartitionedCall", "y", {"x"}), "f", "f");
  auto report = CheckTfBytes(g.Bytes(), {}, "<test>");
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->unsupported.size(), 1u);
  EXPECT_EQ(report->unsupported[0].name, "f/odd");
  EXPECT_EQ(report->unsupported[0].op, "Erfinv");
  ExpectCfError(g, StatusCode::kUnsupported, "1 unsupported TensorFlow node: f/odd (Erfinv)");
}

TEST(TfControlFlow, ThePreCheckGivesAMalformedLoopAsTheReason) {
  TfGraph g = CounterLoop();
  for (auto& n : *g.def().mutable_node())
    if (n.name() == "while/LoopCond") n.set_op("Identity");
  ParseOptions o;
  o.out_nodes = {"while/Exit_1"};
  auto report = CheckTfBytes(g.Bytes(), o, "<test>");
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_FALSE(report->unsupported.empty());
  for (const auto& u : report->unsupported)
    EXPECT_NE(u.reason.find("while/while_context"), std::string::npos) << u.name << ": " << u.reason;
}

TEST(TfControlFlow, AWriteAtAnotherIndexIsRefusedNamingIt) {
  TfGraph g = DynamicRnn(Floats(21, 0.1f), Floats(3, 0.f));
  for (auto& n : *g.def().mutable_node())
    if (n.name() == "rnn/while/Write") n.set_input(1, "rnn/while/Enter_3");
  ExpectCfError(g, StatusCode::kUnsupported,
                "TensorArrayWriteV3 rnn/while/Write writes at an index that is not a step counter",
                CfOuts({"outputs"}));
}

}  // namespace
}  // namespace ge::test
