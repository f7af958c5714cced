// LSTM, GRU and RNN inference: Y and the states by layout and direction,
// hidden_size from R when the attribute is absent, and the attribute values
// ge refuses with the node named.
#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(RnnOps, ShapesByLayoutAndDirection) {
  OpGraph lstm("LSTM", 3);  // X [seq 5, batch 2, input 3], hidden 4
  lstm.In(F32({5, 2, 3})).In(F32({1, 16, 3})).In(F32({1, 16, 4})).Int("hidden_size", 4);
  EXPECT_EQ(InferOut(lstm, 0), "f32[5,1,2,4]");
  EXPECT_EQ(lstm.Out(1), "f32[1,2,4]");
  EXPECT_EQ(lstm.Out(2), "f32[1,2,4]");
  OpGraph bi("GRU", 2);  // layout 1: X [batch 2, seq 5, input 3]; hidden from R
  bi.In(F32({2, 5, 3})).In(F32({2, 12, 3})).In(F32({2, 12, 4}))
      .Attr("direction", std::string("bidirectional")).Int("layout", 1);
  EXPECT_EQ(InferOut(bi, 0), "f32[2,5,2,4]");
  EXPECT_EQ(bi.Out(1), "f32[2,2,4]");
  OpGraph rnn("RNN", 2);  // unknown seq and batch stay unknown
  rnn.In(F32({-1, -1, 3})).In(F32({1, 4, 3})).In(F32({1, 4, 4})).Absent().Absent().In(F32({1, -1, 4}));
  EXPECT_EQ(InferOut(rnn, 0), "f32[?,1,?,4]");
}

TEST(RnnOps, Errors) {
  OpGraph dir("LSTM", 1, "l");
  dir.In(F32({5, 2, 3})).In(F32({1, 16, 3})).In(F32({1, 16, 4})).Attr("direction", std::string("up"));
  EXPECT_TRUE(FailsWith(dir, {"direction 'up' is not one of forward, reverse, bidirectional"}));
  OpGraph w("LSTM", 1, "l");  // W for 3 gates: a GRU's
  w.In(F32({5, 2, 3})).In(F32({1, 12, 3})).In(F32({1, 16, 4})).Int("hidden_size", 4);
  EXPECT_TRUE(FailsWith(w, {"W f32[1,12,3] must be [1,16,3]"}));
  OpGraph dirs("GRU", 1, "g");  // bidirectional needs two directions of weights
  dirs.In(F32({5, 2, 3})).In(F32({1, 12, 3})).In(F32({1, 12, 4})).Attr("direction", std::string("bidirectional"));
  EXPECT_TRUE(FailsWith(dirs, {"W f32[1,12,3] must be [2,12,3]"}));
  OpGraph h0("RNN", 1, "r");
  h0.In(F32({5, 2, 3})).In(F32({1, 4, 3})).In(F32({1, 4, 4})).Absent().Absent().In(F32({2, 1, 4}));
  EXPECT_TRUE(FailsWith(h0, {"initial_h f32[2,1,4] must be [1,2,4]"}));
  OpGraph acts("GRU", 1, "g");
  acts.In(F32({5, 2, 3})).In(F32({1, 12, 3})).In(F32({1, 12, 4}))
      .Attr("activations", std::vector<std::string>{"Sigmoid"});
  EXPECT_TRUE(FailsWith(acts, {"activations has 1 names, but GRU with 1 direction(s) takes 2"}));
  OpGraph unknown("RNN", 1, "r");
  unknown.In(F32({5, 2, 3})).In(F32({1, 4, 3})).In(F32({1, 4, 4}))
      .Attr("activations", std::vector<std::string>{"Gelu"});
  EXPECT_TRUE(FailsWith(unknown, {"activation 'Gelu' is not an ONNX RNN activation"}, StatusCode::kUnsupported));
  OpGraph layout("RNN", 1, "r");
  layout.In(F32({5, 2, 3})).In(F32({1, 4, 3})).In(F32({1, 4, 4})).Int("layout", 2);
  EXPECT_TRUE(FailsWith(layout, {"layout 2 is not 0 or 1"}));
  OpGraph lens("RNN", 1, "r");
  lens.In(F32({5, 2, 3})).In(F32({1, 4, 3})).In(F32({1, 4, 4})).Absent().In(F32({2}));
  EXPECT_TRUE(FailsWith(lens, {"input 4 must be int32 or int64"}));
}

}  // namespace
}  // namespace ge::test
