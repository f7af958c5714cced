// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: the loss is the
// targets' shape or a scalar by reduction; log_prob is the scores' shape.
#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(NegativeLogLikelihoodLoss, ReductionDecidesTheShape) {
  OpGraph mean("NegativeLogLikelihoodLoss");
  mean.In(F32({3, 5, 2})).In(I64({3, 2}));
  EXPECT_EQ(InferOut(mean), "f32[]");
  OpGraph none("NegativeLogLikelihoodLoss");
  none.In(F32({3, 5, 6, 6})).In(I64({3, 6, 6})).In(F32({5})).Attr("reduction", std::string("none"));
  EXPECT_EQ(InferOut(none), "f32[3,6,6]");
  OpGraph from_scores("NegativeLogLikelihoodLoss");  // targets of unknown rank: the scores say
  from_scores.In(F32({3, 5, -1})).In(I64({kUnknownRank})).Attr("reduction", std::string("none"));
  EXPECT_EQ(InferOut(from_scores), "f32[3,?]");
}

TEST(NegativeLogLikelihoodLoss, Errors) {
  OpGraph t("NegativeLogLikelihoodLoss", 1, "nll");
  t.In(F32({3, 5, 2})).In(I64({3, 5}));
  EXPECT_TRUE(FailsWith(t, {"node nll (NegativeLogLikelihoodLoss)", "targets i64[3,5] must be the scores f32[3,5,2]",
                            "[3,2]"}));
  OpGraph w("NegativeLogLikelihoodLoss");
  w.In(F32({3, 5})).In(I64({3})).In(F32({4}));
  EXPECT_TRUE(FailsWith(w, {"weight f32[4] must be a vector of the 5 classes"}));
  OpGraph r("NegativeLogLikelihoodLoss");
  r.In(F32({3, 5})).In(I64({3})).Attr("reduction", std::string("max"));
  EXPECT_TRUE(FailsWith(r, {"reduction 'max' is not one of none, sum, mean"}));
  OpGraph dt("NegativeLogLikelihoodLoss");
  dt.In(F32({3, 5})).In(F32({3}));
  EXPECT_TRUE(FailsWith(dt, {"input 1 must be int32 or int64, not f32"}));
  OpGraph wdt("NegativeLogLikelihoodLoss");
  wdt.In(F32({3, 5})).In(I64({3})).In(TensorDesc(DataType::kFloat64, {5}));
  EXPECT_TRUE(FailsWith(wdt, {"input 0 is f32 and input 2 is f64"}));
  OpGraph rank("NegativeLogLikelihoodLoss");
  rank.In(F32({3})).In(I64({3}));
  EXPECT_TRUE(FailsWith(rank, {"rank >= 2"}));
}

TEST(SoftmaxCrossEntropyLoss, LogProbIsTheScoresShape) {
  OpGraph g("SoftmaxCrossEntropyLoss", 2);
  g.In(TensorDesc(DataType::kFloat64, {3, 5, 2, 7})).In(TensorDesc(DataType::kInt32, {3, 2, 7}));
  EXPECT_EQ(InferOut(g, 0), "f64[]");
  EXPECT_EQ(g.Out(1), "f64[3,5,2,7]");
  OpGraph one("SoftmaxCrossEntropyLoss");
  one.In(F32({3, 5})).In(I64({3})).Attr("reduction", std::string("none"));
  EXPECT_EQ(InferOut(one), "f32[3]");
}

}  // namespace
}  // namespace ge::test
