// ge_base Result<T>: a value or the error saying why there is none. An OK
// status is no error, so a Result made from one must not claim to be ok().
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ge_base/status.h"

namespace ge {
namespace {

TEST(ResultTest, RefusesAnOkStatusWithAnInternalError) {
  Result<int> r = Status::Ok();
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_EQ(r.status().message(), "Result constructed from an OK status: no value");
}

TEST(ResultTest, RefusesAnOkStatusForAMoveOnlyValueToo) {
  Result<std::unique_ptr<int>> r = Status();
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_EQ(r.status().message(), "Result constructed from an OK status: no value");
}

TEST(ResultTest, KeepsAnErrorStatusAsGiven) {
  Result<std::string> r = NotFound("model.onnx: no such file");
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(r.status().message(), "model.onnx: no such file");
}

TEST(ResultTest, AValueIsOkAndReadable) {
  Result<std::string> r = std::string("conv1");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "conv1");
  EXPECT_EQ(r->size(), 5u);
}

// What GE_ASSIGN_OR_RETURN hands on when the callee slipped and returned an
// OK status: the caller sees the internal error instead of reading nothing.
Result<int> ReturnsOkByMistake() { return Status::Ok(); }
Status UsesAssignOrReturn(int* out) {
  GE_ASSIGN_OR_RETURN(*out, ReturnsOkByMistake());
  return Status::Ok();
}

TEST(ResultTest, AssignOrReturnPassesTheRefusalOn) {
  int v = 7;
  const Status s = UsesAssignOrReturn(&v);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_EQ(s.message(), "Result constructed from an OK status: no value");
  EXPECT_EQ(v, 7);
}

}  // namespace
}  // namespace ge
