// LSTM, GRU and RNN kernels. Closed forms (zero W and R leave only the
// biases, so each gate's value is known) pin the ONNX gate order and bias
// layout of both implementations; then oneDNN's path against the reference
// loop on random data over every direction, layout and optional input. A
// clip no value reaches (1e30) takes the reference loop with the same math.
#include <cmath>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

constexpr float kNoClip = 1e30f;

float Sig(float x) { return 1.0f / (1.0f + std::exp(-x)); }

struct Case {
  std::string op = "LSTM";
  int64_t T = 3, N = 2, I = 3, H = 4;
  std::string direction = "forward";
  int64_t layout = 0;
  bool bias = true, h0 = true, c0 = true, peep = false, const_w = true;
  std::vector<int32_t> lens;  // empty: no sequence_lens
  int64_t lbr = 0;
  std::string acts;           // empty: the defaults
  std::optional<float> clip;
  uint32_t seed = 1;
  size_t outputs = 3;         // of the node (RNN and GRU have at most 2)

  int64_t D() const { return direction == "bidirectional" ? 2 : 1; }
  int64_t G() const { return op == "LSTM" ? 4 : op == "GRU" ? 3 : 1; }
  dims X() const { return layout ? dims{N, T, I} : dims{T, N, I}; }
  dims Y() const { return layout ? dims{N, T, D(), H} : dims{T, D(), N, H}; }
  dims State() const { return layout ? dims{N, D(), H} : dims{D(), N, H}; }
};

std::vector<HostTensor> Inputs(const Case& c) {
  const int64_t D = c.D(), GH = c.G() * c.H;
  std::vector<HostTensor> in = {HostTensor::F32(c.X(), Random(Count(c.X()), c.seed)),
                                HostTensor::F32({D, GH, c.I}, Random(D * GH * c.I, c.seed + 1, -.5f, .5f), c.const_w),
                                HostTensor::F32({D, GH, c.H}, Random(D * GH * c.H, c.seed + 2, -.5f, .5f), c.const_w)};
  auto opt = [&](bool on, HostTensor t) { in.push_back(on ? std::move(t) : HostTensor::Absent()); };
  opt(c.bias, HostTensor::F32({D, 2 * GH}, Random(D * 2 * GH, c.seed + 3), c.const_w));
  opt(!c.lens.empty(), I32({c.N}, c.lens));
  opt(c.h0, HostTensor::F32(c.State(), Random(Count(c.State()), c.seed + 4)));
  if (c.op == "LSTM") {
    opt(c.c0, HostTensor::F32(c.State(), Random(Count(c.State()), c.seed + 5)));
    opt(c.peep, HostTensor::F32({D, 3 * c.H}, Random(D * 3 * c.H, c.seed + 6), c.const_w));
  }
  return in;
}

hal::Attrs Attrs(const Case& c) {
  hal::Attrs a = Attr("hidden_size", c.H);
  a.Set("direction", c.direction);
  a.Set("layout", c.layout);
  if (c.op == "GRU") a.Set("linear_before_reset", c.lbr);
  if (!c.acts.empty()) a.Set("activations", c.acts);
  if (c.clip) a.Set("clip", static_cast<double>(*c.clip));
  return a;
}

std::vector<hal::TensorInfo> Outputs(const Case& c) {
  std::vector<hal::TensorInfo> out = {{DataType::kFloat32, c.Y()}, {DataType::kFloat32, c.State()}};
  if (c.op == "LSTM") out.push_back({DataType::kFloat32, c.State()});
  out.resize(std::min(out.size(), c.outputs));
  return out;
}

Result<std::vector<HostTensor>> RunCase(const Case& c, const std::vector<HostTensor>& in) {
  return RunKernel(c.op, Attrs(c), in, Outputs(c));
}

// oneDNN (defaults) against the reference loop (the same case with a clip).
void ExpectPathsAgree(const Case& c) {
  SCOPED_TRACE(c.op + " " + c.direction + " layout " + std::to_string(c.layout) + " bias " + std::to_string(c.bias) +
               " h0 " + std::to_string(c.h0) + " const " + std::to_string(c.const_w) + " lbr " + std::to_string(c.lbr));
  const auto in = Inputs(c);
  GE_RUN_OK(fast, RunCase, c, in);
  Case ref = c;
  ref.clip = kNoClip;
  GE_RUN_OK(slow, RunCase, ref, in);
  for (size_t j = 0; j < fast.size(); ++j) ExpectNear(fast[j].as<float>(), slow[j].as<float>(), 1e-5f);
}

TEST(RnnKernel, OneDnnMatchesTheReferenceEverywhere) {
  for (const char* op : {"LSTM", "GRU", "RNN"})
    for (const char* dir : {"forward", "reverse", "bidirectional"})
      for (int64_t layout : {0, 1})
        for (bool optional : {true, false}) {
          Case c;
          c.op = op;
          c.direction = dir;
          c.layout = layout;
          c.bias = c.h0 = c.c0 = optional;
          c.const_w = optional;  // weights as inputs: packed per run
          ExpectPathsAgree(c);
        }
}

TEST(RnnKernel, VariantsOneDnnExpresses) {
  Case peep;  // LSTM peepholes, both directions
  peep.peep = true;
  peep.direction = "bidirectional";
  ExpectPathsAgree(peep);
  peep.const_w = false;
  ExpectPathsAgree(peep);
  Case h_only;  // initial_h without initial_c
  h_only.c0 = false;
  ExpectPathsAgree(h_only);
  for (const char* dir : {"forward", "bidirectional"}) {
    Case lbr;
    lbr.op = "GRU";
    lbr.lbr = 1;
    lbr.direction = dir;
    ExpectPathsAgree(lbr);
  }
  for (const char* act : {"Relu,Relu", "Sigmoid,Sigmoid"}) {
    Case rnn;
    rnn.op = "RNN";
    rnn.direction = "bidirectional";
    rnn.acts = act;
    ExpectPathsAgree(rnn);
  }
  Case full_lens;  // sequence_lens all at seq_length: still oneDNN
  full_lens.lens = {3, 3};
  ExpectPathsAgree(full_lens);
  for (size_t outputs : {1, 2}) {  // LSTM without Y_c, or with Y alone
    Case c;
    c.outputs = outputs;
    ExpectPathsAgree(c);
  }
}

// Zero W and R: every gate is an activation of its bias, the same each step.
HostTensor Zeros(dims d, bool is_const = true) {
  return HostTensor::F32(d, std::vector<float>(static_cast<size_t>(Count(d)), 0.f), is_const);
}

TEST(RnnKernel, LstmGateOrderIsIofc) {
  // H = 1; B = Wb [i, o, f, c] + Rb: i .5, o 1, f -1, c 2 (split over Wb and Rb).
  const HostTensor b = HostTensor::F32({1, 8}, {0.25f, 1, -1, 1, 0.25f, 0, 0, 1});
  for (float clip : {0.0f, kNoClip}) {
    hal::Attrs a = Attr("hidden_size", int64_t{1});
    if (clip > 0) a.Set("clip", static_cast<double>(clip));
    RUN_OK(out, "LSTM", a, {Zeros({2, 1, 1}), Zeros({1, 4, 1}), Zeros({1, 4, 1}), b},
           {{DataType::kFloat32, {2, 1, 1, 1}}, {DataType::kFloat32, {1, 1, 1}}, {DataType::kFloat32, {1, 1, 1}}});
    float c = 0, h = 0;
    std::vector<float> y;
    for (int t = 0; t < 2; ++t) {
      c = Sig(-1) * c + Sig(0.5f) * std::tanh(2.0f);
      h = Sig(1) * std::tanh(c);
      y.push_back(h);
    }
    ExpectNear(out[0].as<float>(), y, 1e-5f);
    ExpectNear(out[1].as<float>(), {h}, 1e-5f);
    ExpectNear(out[2].as<float>(), {c}, 1e-5f);
  }
}

TEST(RnnKernel, GruGateOrderAndLinearBeforeReset) {
  // Wb [z, r, h] = .5, -1, 1; Rb = 0, 0, 2; initial_h .3. R_h is zero, so
  // linear_before_reset differs only in where Rb_h goes: inside the
  // activation unscaled (0) or scaled by r (1).
  const HostTensor b = HostTensor::F32({1, 6}, {0.5f, -1, 1, 0, 0, 2});
  const HostTensor h0 = HostTensor::F32({1, 1, 1}, {0.3f});
  for (int64_t lbr : {0, 1})
    for (float clip : {0.0f, kNoClip}) {
      hal::Attrs a = Attr("hidden_size", int64_t{1});
      a.Set("linear_before_reset", lbr);
      if (clip > 0) a.Set("clip", static_cast<double>(clip));
      RUN_OK(out, "GRU", a, {Zeros({1, 1, 1}), Zeros({1, 3, 1}), Zeros({1, 3, 1}), b, HostTensor::Absent(), h0},
             {{DataType::kFloat32, {1, 1, 1, 1}}, {DataType::kFloat32, {1, 1, 1}}});
      const float z = Sig(0.5f), r = Sig(-1);
      const float cand = std::tanh(lbr ? 1 + r * 2 : 1 + 2);
      ExpectNear(out[1].as<float>(), {(1 - z) * cand + z * 0.3f}, 1e-5f);
    }
}

TEST(RnnKernel, ReferenceActivationsClipAndInputForget) {
  // RNN, Affine(2, .5) of the bias 1.5 (Wb 1 + Rb .5): 3.5 each step.
  hal::Attrs affine = Attr("hidden_size", int64_t{1});
  affine.Set("activations", std::string("Affine"));
  affine.Set("activation_alpha", std::vector<double>{2});
  affine.Set("activation_beta", std::vector<double>{0.5});
  const HostTensor b = HostTensor::F32({1, 2}, {1, 0.5f});
  RUN_OK(aff, "RNN", affine, {Zeros({2, 1, 1}), Zeros({1, 1, 1}), Zeros({1, 1, 1}), b},
         {{DataType::kFloat32, {2, 1, 1, 1}}});
  ExpectNear(aff[0].as<float>(), {3.5f, 3.5f});
  // The clip bounds the activation's input: tanh(1), not tanh(1.5).
  hal::Attrs clip = Attr("hidden_size", int64_t{1});
  clip.Set("clip", 1.0);
  RUN_OK(clipped, "RNN", clip, {Zeros({1, 1, 1}), Zeros({1, 1, 1}), Zeros({1, 1, 1}), b},
         {{DataType::kFloat32, {1, 1, 1, 1}}});
  ExpectNear(clipped[0].as<float>(), {std::tanh(1.0f)}, 1e-6f);
  // input_forget: f = 1 - i, whatever f's own bias. B: i .5, o 1, f 9, c 2.
  hal::Attrs coupled = Attr("hidden_size", int64_t{1});
  coupled.Set("input_forget", int64_t{1});
  const HostTensor lb = HostTensor::F32({1, 8}, {0.5f, 1, 9, 2, 0, 0, 0, 0});
  const HostTensor c0 = HostTensor::F32({1, 1, 1}, {0.7f});
  RUN_OK(lstm, "LSTM", coupled,
         {Zeros({1, 1, 1}), Zeros({1, 4, 1}), Zeros({1, 4, 1}), lb, HostTensor::Absent(), HostTensor::Absent(), c0},
         {{DataType::kFloat32, {1, 1, 1, 1}}, {DataType::kFloat32, {1, 1, 1}}, {DataType::kFloat32, {1, 1, 1}}});
  const float c = (1 - Sig(0.5f)) * 0.7f + Sig(0.5f) * std::tanh(2.0f);
  ExpectNear(lstm[2].as<float>(), {c}, 1e-5f);
}

TEST(RnnKernel, ShorterSequencesMatchTruncatedRuns) {
  for (const char* op : {"LSTM", "GRU", "RNN"})
    for (const char* dir : {"forward", "reverse", "bidirectional"})
      for (int64_t layout : {0, 1}) {
        SCOPED_TRACE(std::string(op) + " " + dir + " layout " + std::to_string(layout));
        Case c;
        c.op = op;
        c.direction = dir;
        c.layout = layout;
        c.T = 4;
        c.N = 2;
        c.lens = {4, 2};
        const auto in = Inputs(c);
        GE_RUN_OK(out, RunCase, c, in);
        const auto y = out[0].as<float>(), yh = out[1].as<float>();
        // Entry 1 alone over its 2 steps, with its own initial states.
        Case one = c;
        one.T = 2;
        one.N = 1;
        one.lens.clear();
        auto one_in = Inputs(one);
        const int64_t D = c.D(), H = c.H, I = c.I;
        // Entry 1's rows of a state: [D, 2, H] (layout 0) or [2, D, H] (layout 1).
        auto state1 = [&](const HostTensor& t) {
          const std::vector<float> v = t.as<float>();
          std::vector<float> r;
          for (int64_t d = 0; d < D; ++d) {
            const int64_t row = layout ? D + d : d * 2 + 1;
            r.insert(r.end(), v.begin() + row * H, v.begin() + (row + 1) * H);
          }
          return r;
        };
        // X rows of entry 1 for t < 2 (seq rows of width I).
        std::vector<float> x;
        const auto xv = in[0].as<float>();
        for (int64_t t = 0; t < 2; ++t) {
          const int64_t row = layout ? 1 * c.T + t : t * 2 + 1;
          x.insert(x.end(), xv.begin() + row * I, xv.begin() + (row + 1) * I);
        }
        one_in[0] = HostTensor::F32(one.X(), x);
        for (size_t i = 1; i < 4; ++i) one_in[i] = in[i];
        one_in[5] = HostTensor::F32(one.State(), state1(in[5]));
        if (c.op == "LSTM") {
          one_in[6] = HostTensor::F32(one.State(), state1(in[6]));
          one_in[7] = in[7];
        }
        GE_RUN_OK(ref, RunCase, one, one_in);
        ExpectNear(state1(out[1]), ref[1].as<float>(), 1e-5f);
        // Y of entry 1: its two steps, then zeros.
        for (int64_t t = 0; t < c.T; ++t)
          for (int64_t d = 0; d < D; ++d)
            for (int64_t j = 0; j < H; ++j) {
              const int64_t at = layout ? ((1 * c.T + t) * D + d) * H + j : ((t * D + d) * 2 + 1) * H + j;
              const float want = t < 2 ? ref[0].as<float>()[(t * D + d) * H + j] : 0.0f;
              EXPECT_NEAR(y[at], want, 1e-5f) << "t " << t << " d " << d;
            }
        // Entry 0 runs its full length: Y_h of direction 0 is its last step (first for reverse).
        const int64_t last = std::string(dir) == "reverse" ? 0 : c.T - 1;
        for (int64_t j = 0; j < H; ++j) {
          const int64_t y_at = layout ? (last * D + 0) * H + j : ((last * D + 0) * 2 + 0) * H + j;
          EXPECT_NEAR(yh[j], y[y_at], 1e-6f);  // entry 0, direction 0: state row 0 in both layouts
        }
      }
}

TEST(RnnKernel, SequenceLengthsOutOfRangeFail) {
  Case c;
  c.lens = {3, 5};
  auto r = RunCase(c, Inputs(c));
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "sequence_lens[1] is 5, outside [0, 3]"));
  EXPECT_NE(r.status().ToString().find("sequence_lens[1] is 5, outside [0, 3]"), std::string::npos)
      << r.status().ToString();
  EXPECT_NE(r.status().ToString().find("node test_LSTM (LSTM)"), std::string::npos) << r.status().ToString();
}

TEST(RnnKernel, RefusesWhatItCannotRun) {
  Case c;
  auto in = Inputs(c);
  in[0].dtype = DataType::kFloat64;
  auto r = CreateKernel("LSTM", Attrs(c), in, Outputs(c));
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "input dtype f64 is not supported (f32)"));
  EXPECT_NE(r.status().ToString().find("node test_LSTM (LSTM)"), std::string::npos) << r.status().ToString();
  Case bad = c;
  bad.acts = "Sigmoid,Tanh,Swish";
  r = CreateKernel("LSTM", Attrs(bad), Inputs(bad), Outputs(bad));
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "activation 'Swish' is not an ONNX RNN activation"));
  EXPECT_NE(r.status().ToString().find("activation 'Swish'"), std::string::npos) << r.status().ToString();
}

}  // namespace
}  // namespace ge::test
