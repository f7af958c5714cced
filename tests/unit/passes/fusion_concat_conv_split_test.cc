// concat_conv_split on tiny graphs: a channel Concat read only by convs
// (directly or through MaxPool / AveragePool / Relu) becomes one partial conv
// per Concat input and a chain of Adds, which conv_post_ops fuses into the
// convs as sum post-ops; what must stay untouched stays.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

Tensor SplitTestWeights(int64_t cout, int64_t cin, int64_t k, size_t seed, int64_t rank = 4) {
  Dims d = {cout, cin};
  for (int64_t i = 2; i < rank; ++i) d.push_back(k);
  size_t n = 1;
  for (int64_t v : d) n *= static_cast<size_t>(v);
  return F32s(d, Pseudo(n, 0.03f, -0.15f, seed));
}

// A k x k conv (same padding) of cin -> cout channels with a bias.
Node* SplitTestConv(Tiny& t, Node* x, const std::string& name, int64_t cin, int64_t cout, int64_t k, size_t seed,
                    int64_t group = 1, int64_t rank = 4) {
  const int64_t pad = k / 2;
  return t.Op("Conv", name,
              {x, t.Const(name + "_w", SplitTestWeights(cout, cin / group, k, seed, rank)),
               t.Const(name + "_b", F32s({cout}, Pseudo(static_cast<size_t>(cout), 0.05f, -0.2f, seed + 1)))},
              {{"pads", Dims(static_cast<size_t>(2 * (rank - 2)), pad)}, {"group", group}});
}

Node* SplitTestConcat(Tiny& t, const std::vector<Node*>& parts, int64_t axis = 1) {
  return t.Op("Concat", "cat", parts, {{"axis", axis}});
}

// Inputs of `channels` channels each, [1, c, 5, 5] (rank 4) or [1, c, 7] (rank 3).
std::vector<Node*> SplitTestInputs(Tiny& t, const std::vector<int64_t>& channels, int64_t rank = 4) {
  std::vector<Node*> in;
  for (size_t i = 0; i < channels.size(); ++i)
    in.push_back(
        t.Data("x" + std::to_string(i), F32(rank == 4 ? Dims{1, channels[i], 5, 5} : Dims{1, channels[i], 7})));
  return in;
}

std::vector<Floats> SplitTestValues(const std::vector<int64_t>& channels, int64_t rank = 4) {
  std::vector<Floats> v;
  for (size_t i = 0; i < channels.size(); ++i)
    v.push_back(Pseudo(static_cast<size_t>(channels[i] * (rank == 4 ? 25 : 7)), 0.2f, -1.f, i + 1));
  return v;
}

int64_t SplitTestChannelSum(const std::vector<int64_t>& channels) {
  int64_t s = 0;
  for (int64_t c : channels) s += c;
  return s;
}

// Concat(x_0..x_k-1) -> conv (3x3, 6 outputs) [-> Relu] -> output.
Tiny SplitTestConcatConv(const std::vector<int64_t>& channels, bool relu = false, int64_t axis = 1) {
  Tiny t;
  Node* y = SplitTestConv(t, SplitTestConcat(t, SplitTestInputs(t, channels), axis), "conv",
                          SplitTestChannelSum(channels), 6, 3, 7);
  t.Output({relu ? t.Op("Relu", "relu", {y}) : y});
  return t;
}

TEST(FusionConcatConvSplit, TwoInputsBecomeTwoPartialConvsAndAnAdd) {
  for (int64_t axis : {1, -3}) {
    Tiny t = SplitTestConcatConv({3, 5}, false, axis);
    ASSERT_TRUE(t.RunPass(ConcatConvSplitPass()).ok());
    EXPECT_EQ(t.Count("Concat"), 0) << axis;
    EXPECT_EQ(t.Count("Conv"), 2);
    EXPECT_EQ(t.Count("Add"), 1);
    // Named after the conv, so ge-dump --track and --keep_dtype find them.
    Node* p0 = t.g().FindNode("conv_split0");
    Node* p1 = t.g().FindNode("conv_split1");
    ASSERT_TRUE(p0 && p1);
    ASSERT_TRUE(t.g().FindNode("conv_split_add1"));
    EXPECT_EQ(p0->InputNode(0)->name(), "x0");
    EXPECT_EQ(p1->InputNode(0)->name(), "x1");
    EXPECT_EQ(p0->InputNode(2)->name(), "conv_b") << "the bias on the first";
    EXPECT_FALSE(p1->HasInput(2));
    // The weights are W[:, 0:3] and W[:, 3:8].
    const Tensor w = SplitTestWeights(6, 8, 3, 7);
    const Tensor* w0 = p0->InputNode(1)->GetTensor("value");
    const Tensor* w1 = p1->InputNode(1)->GetTensor("value");
    ASSERT_TRUE(w0 && w1);
    EXPECT_EQ(w0->desc().dims, (Dims{6, 3, 3, 3}));
    EXPECT_EQ(w1->desc().dims, (Dims{6, 5, 3, 3}));
    for (int64_t o = 0; o < 6; ++o)
      for (int64_t c = 0; c < 8; ++c)
        for (int64_t s = 0; s < 9; ++s) {
          const float want = w.as<float>()[(o * 8 + c) * 9 + s];
          const float got = c < 3 ? w0->as<float>()[(o * 3 + c) * 9 + s] : w1->as<float>()[(o * 5 + c - 3) * 9 + s];
          ASSERT_EQ(got, want) << o << " " << c << " " << s;
        }
    // Compiled: conv_post_ops takes the Add as a sum post-op.
    const auto counts = ExpectSameNumerics(SplitTestConcatConv({3, 5}, false, axis), SplitTestValues({3, 5}), 1e-4f);
    EXPECT_EQ(counts.count("Concat"), 0u);
    EXPECT_EQ(counts.count("Add"), 0u);
    EXPECT_EQ(counts.at("Conv"), 2);
  }
}

// With a Relu after the conv the compiled graph is a chain of convs, each
// summing its predecessor's result; the last also applies the Relu.
TEST(FusionConcatConvSplit, ReluAfterTheConvGoesOntoTheLastOfTheChain) {
  const std::vector<int64_t> channels = {3, 5, 2, 4};
  ASSERT_LE(channels.size(), kConcatConvSplitMaxConvs);
  auto run = CompileAndRun(SplitTestConcatConv(channels, true).Clone(), SplitTestValues(channels));
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->counts["Concat"], 0);
  EXPECT_EQ(run->counts["Add"], 0);
  EXPECT_EQ(run->counts["Relu"], 0);
  ASSERT_EQ(run->counts["Conv"], 4);
  Node* last = nullptr;
  int sums = 0;
  for (Node* n : run->model.graph->nodes()) {
    if (n->type() != "Conv") continue;
    EXPECT_NE(n->name().find("conv_split"), std::string::npos) << n->name();
    sums += n->GetInt("fused_sum") == 1;
    if (n->HasAttr("activation")) {
      EXPECT_EQ(last, nullptr) << "one Relu";
      last = n;
    }
  }
  EXPECT_EQ(sums, 3);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->GetString("activation"), "Relu");
  EXPECT_EQ(last->GetInt("fused_sum"), 1);
  // Nothing but the graph output (through at most a TransData) reads it.
  for (Node* n : last->OutNodes()) EXPECT_TRUE(n->type() == "NetOutput" || n->type() == "TransData") << n->Label();
  ExpectSameNumerics(SplitTestConcatConv(channels, true), SplitTestValues(channels), 1e-4f);
}

// Concat -> per-channel op(s) -> conv: the ops are pushed through the
// Concat, one copy per input, named after them.
TEST(FusionConcatConvSplit, PushesPoolsAndReluThroughTheConcat) {
  auto build = [](const std::string& between) {
    Tiny t;
    Node* x = SplitTestConcat(t, SplitTestInputs(t, {4, 6}));
    if (between == "MaxPool" || between == "Relu+AveragePool") {
      if (between != "MaxPool") x = t.Op("Relu", "relu", {x});
      x = t.Op(between == "MaxPool" ? "MaxPool" : "AveragePool", "pool", {x},
               {{"kernel_shape", Dims{3, 3}}, {"strides", Dims{2, 2}}, {"pads", Dims{1, 1, 1, 1}}});
    }
    t.Output({SplitTestConv(t, x, "conv", 10, 4, 1, 3)});
    return t;
  };
  for (const char* between : {"MaxPool", "Relu+AveragePool"}) {
    Tiny t = build(between);
    ASSERT_TRUE(t.RunPass(ConcatConvSplitPass()).ok());
    EXPECT_EQ(t.Count("Concat"), 0) << between;
    EXPECT_EQ(t.Count("Conv"), 2);
    const std::string pool = std::string(between) == "MaxPool" ? "MaxPool" : "AveragePool";
    EXPECT_EQ(t.Count(pool), 2);
    ASSERT_TRUE(t.g().FindNode("pool_split0") && t.g().FindNode("pool_split1"));
    EXPECT_EQ(t.g().FindNode("pool_split1")->output_desc(0).dims, (Dims{1, 6, 3, 3}));
    EXPECT_EQ(t.g().FindNode("conv_split1")->InputNode(0)->name(), "pool_split1");
    if (pool == "AveragePool") {
      EXPECT_EQ(t.Count("Relu"), 2);
      EXPECT_EQ(t.g().FindNode("pool_split0")->InputNode(0)->name(), "relu_split0");
    }
    const auto counts = ExpectSameNumerics(build(between), SplitTestValues({4, 6}), 1e-4f);
    EXPECT_EQ(counts.count("Concat"), 0u) << between;
  }
}

// Several readers, one through a pool (GoogLeNet's form): every one splits.
TEST(FusionConcatConvSplit, SplitsForEveryReader) {
  auto build = [] {
    Tiny t;
    Node* cat = SplitTestConcat(t, SplitTestInputs(t, {4, 3}));
    Node* pool = t.Op("MaxPool", "pool", {cat},
                      {{"kernel_shape", Dims{3, 3}}, {"strides", Dims{1, 1}}, {"pads", Dims{1, 1, 1, 1}}});
    t.Output({SplitTestConv(t, cat, "c3", 7, 2, 3, 2), SplitTestConv(t, pool, "cp", 7, 3, 1, 3)});
    return t;
  };
  ASSERT_LE(4u, kConcatConvSplitMaxConvs);
  Tiny t = build();
  ASSERT_TRUE(t.RunPass(ConcatConvSplitPass()).ok());
  EXPECT_EQ(t.Count("Concat"), 0);
  EXPECT_EQ(t.Count("Conv"), 4);
  EXPECT_EQ(t.Count("MaxPool"), 2);
  EXPECT_EQ(t.Count("Add"), 2);
  ExpectSameNumerics(build(), SplitTestValues({4, 3}), 1e-4f);
}

TEST(FusionConcatConvSplit, Conv1dToo) {
  auto build = [] {
    Tiny t;
    Node* cat = SplitTestConcat(t, SplitTestInputs(t, {3, 2}, 3));
    t.Output({SplitTestConv(t, cat, "conv", 5, 4, 3, 5, 1, 3)});
    return t;
  };
  Tiny t = build();
  ASSERT_TRUE(t.RunPass(ConcatConvSplitPass()).ok());
  EXPECT_EQ(t.Count("Concat"), 0);
  EXPECT_EQ(t.Count("Conv"), 2);
  ExpectSameNumerics(build(), SplitTestValues({3, 2}, 3), 1e-4f);
}

void ExpectConcatKept(Tiny t, const std::string& what) {
  const int convs = t.Count("Conv"), pools = t.Count("MaxPool");
  ASSERT_TRUE(t.RunPass(ConcatConvSplitPass()).ok()) << what;
  EXPECT_EQ(t.Count("Concat"), 1) << what;
  EXPECT_EQ(t.Count("Conv"), convs) << what;
  EXPECT_EQ(t.Count("MaxPool"), pools) << what;
  EXPECT_EQ(t.Count("Add"), 0) << what;
}

TEST(FusionConcatConvSplit, NotWhenAReaderIsNoConvOrTheConcatIsAnOutput) {
  {
    Tiny t;
    Node* cat = SplitTestConcat(t, SplitTestInputs(t, {2, 2}));
    t.Output({SplitTestConv(t, cat, "conv", 4, 2, 1, 1), t.Op("Sigmoid", "sig", {cat})});
    ExpectConcatKept(std::move(t), "a Sigmoid reads it too");
  }
  {
    Tiny t;
    Node* cat = SplitTestConcat(t, SplitTestInputs(t, {2, 2}));
    t.Output({SplitTestConv(t, cat, "conv", 4, 2, 1, 1), cat});
    ExpectConcatKept(std::move(t), "graph output");
  }
  {
    // Pushing the pool would leave a Concat for the graph output.
    Tiny t;
    Node* cat = SplitTestConcat(t, SplitTestInputs(t, {2, 2}));
    Node* pool = t.Op("MaxPool", "pool", {cat}, {{"kernel_shape", Dims{2, 2}}, {"strides", Dims{2, 2}}});
    t.Output({SplitTestConv(t, cat, "conv", 4, 2, 1, 1), pool});
    ExpectConcatKept(std::move(t), "a pool whose result is an output");
  }
  {
    // MaxPool's Indices in use.
    Tiny t;
    Node* cat = SplitTestConcat(t, SplitTestInputs(t, {2, 2}));
    Node* pool = t.Op("MaxPool", "pool", {cat}, {{"kernel_shape", Dims{2, 2}}, {"strides", Dims{2, 2}}}, 2);
    Node* conv = SplitTestConv(t, pool, "conv", 4, 2, 1, 1);
    Node* out = t.g().AddNode(op::kNetOutput, "out", 0, 0);
    ASSERT_TRUE(t.g().AddEdge(conv, 0, out, 0).ok());
    ASSERT_TRUE(t.g().AddEdge(pool, 1, out, 1).ok());
    ExpectConcatKept(std::move(t), "MaxPool indices");
  }
}

TEST(FusionConcatConvSplit, NotForAGroupedConvComputedWeightsOrAnotherAxis) {
  {
    Tiny t;
    t.Output({SplitTestConv(t, SplitTestConcat(t, SplitTestInputs(t, {2, 2})), "conv", 4, 4, 3, 1, 2)});
    ExpectConcatKept(std::move(t), "group 2");
  }
  {
    Tiny t;
    Node* cat = SplitTestConcat(t, SplitTestInputs(t, {2, 2}));
    Node* w = t.Data("w", F32({3, 4, 1, 1}));
    t.Output({t.Op("Conv", "conv", {cat, w})});
    ExpectConcatKept(std::move(t), "weights from a model input");
  }
  {
    Tiny t;
    Node* a = t.Data("a", F32({1, 2, 3, 5}));
    Node* b = t.Data("b", F32({1, 2, 2, 5}));
    t.Output({SplitTestConv(t, SplitTestConcat(t, {a, b}, 2), "conv", 2, 2, 1, 1)});
    ExpectConcatKept(std::move(t), "axis 2");
  }
}

TEST(FusionConcatConvSplit, SwitchedOffByName) {
  auto off = CompileAndRun(SplitTestConcatConv({3, 5}, true).Clone(), SplitTestValues({3, 5}), {"concat_conv_split"});
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  EXPECT_EQ(off->counts["Concat"], 1);
  EXPECT_EQ(off->counts["Conv"], 1);
  auto on = CompileAndRun(SplitTestConcatConv({3, 5}, true).Clone(), SplitTestValues({3, 5}));
  ASSERT_TRUE(on.ok()) << on.status().ToString();
  EXPECT_EQ(on->counts["Concat"], 0);
  EXPECT_EQ(on->counts["Conv"], 2);
  for (size_t i = 0; i < on->outputs[0].size(); ++i) ASSERT_NEAR(on->outputs[0][i], off->outputs[0][i], 1e-4f) << i;
}

// The cost guard: a Concat that would become more than
// kConcatConvSplitMaxConvs partial convs (inputs x reading convs) stays.
TEST(FusionConcatConvSplit, CostGuardOnInputsTimesReadingConvs) {
  static_assert(kConcatConvSplitMaxConvs >= 4 && kConcatConvSplitMaxConvs % 2 == 0);
  auto build = [](size_t inputs, size_t readers) {
    Tiny t;
    const std::vector<int64_t> channels(inputs, 2);
    Node* cat = SplitTestConcat(t, SplitTestInputs(t, channels));
    std::vector<Node*> outs;
    for (size_t r = 0; r < readers; ++r)
      outs.push_back(SplitTestConv(t, cat, "conv" + std::to_string(r), SplitTestChannelSum(channels), 2, 1, r));
    t.Output(outs);
    return t;
  };
  auto fires = [](Tiny t) {
    EXPECT_TRUE(t.RunPass(ConcatConvSplitPass()).ok());
    return t.Count("Concat") == 0;
  };
  EXPECT_TRUE(fires(build(kConcatConvSplitMaxConvs, 1)));
  EXPECT_FALSE(fires(build(kConcatConvSplitMaxConvs + 1, 1))) << "too many inputs";
  EXPECT_TRUE(fires(build(2, kConcatConvSplitMaxConvs / 2)));
  EXPECT_FALSE(fires(build(2, kConcatConvSplitMaxConvs / 2 + 1))) << "too many readers";
  // Readers behind a pushed pool count too.
  Tiny t;
  Node* cat = SplitTestConcat(t, SplitTestInputs(t, {2, 2}));
  std::vector<Node*> outs;
  for (size_t r = 0; r < kConcatConvSplitMaxConvs / 2; ++r)
    outs.push_back(SplitTestConv(t, cat, "conv" + std::to_string(r), 4, 2, 1, r));
  outs.push_back(SplitTestConv(t, t.Op("Relu", "relu", {cat}), "behind", 4, 2, 1, 9));
  t.Output(outs);
  EXPECT_FALSE(fires(std::move(t))) << "a reader behind a Relu";
}

}  // namespace
}  // namespace ge::fusion_test
