#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(Einsum, OutputShapes) {
  OpGraph mm("Einsum");
  mm.In(F32({5, 2, 3})).In(F32({5, 3, 4})).Attr("equation", std::string("bij, bjk -> bik"));
  EXPECT_EQ(InferOut(mm), "f32[5,2,4]");
  OpGraph diag("Einsum");
  diag.In(F32({3, 5, 5})).Attr("equation", std::string("...ii ->...i"));
  EXPECT_EQ(InferOut(diag), "f32[3,5]");
  OpGraph implicit("Einsum");
  implicit.In(F32({2, 3})).In(F32({3, 4})).Attr("equation", std::string("ij,jk"));
  EXPECT_EQ(InferOut(implicit), "f32[2,4]");
  OpGraph inner("Einsum");
  inner.In(F32({5})).In(F32({5})).Attr("equation", std::string("i,i"));
  EXPECT_EQ(InferOut(inner), "f32[]");
}

TEST(Einsum, Refusals) {
  OpGraph count("Einsum", 1, "es");
  count.In(F32({2})).Attr("equation", std::string("i,i"));
  EXPECT_TRUE(FailsWith(count, {"node es (Einsum)", "2 input terms for 1 inputs"}));
  OpGraph sizes("Einsum");
  sizes.In(F32({2})).In(F32({3})).Attr("equation", std::string("i,i"));
  EXPECT_TRUE(FailsWith(sizes, {"letter 'i' has sizes 2 and 3"}));
  OpGraph rank("Einsum");
  rank.In(F32({2, 2})).Attr("equation", std::string("i->i"));
  EXPECT_TRUE(FailsWith(rank, {"does not fit input 0"}));
  OpGraph out("Einsum");
  out.In(F32({2})).Attr("equation", std::string("i->j"));
  EXPECT_TRUE(FailsWith(out, {"output letter 'j'"}));
}

}  // namespace
}  // namespace ge::test
