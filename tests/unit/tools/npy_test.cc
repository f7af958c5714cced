// ge/tools/npy.h: the .npy reader refuses what is not a well-formed header
// (as an error, never an exception) and round-trips what WriteNpy writes.
#include "ge/tools/npy.h"

#include <gtest/gtest.h>

#include "tests/common/refusal.h"

namespace ge {
namespace {

std::string NpyBytes(std::string header, size_t data_bytes) {
  header += '\n';
  std::string b("\x93NUMPY\x01\x00", 8);
  b += static_cast<char>(header.size() & 0xff);
  b += static_cast<char>(header.size() >> 8);
  return b + header + std::string(data_bytes, '\0');
}

std::string Header(const std::string& shape) {
  return "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
}

TEST(NpyTest, ShapesOfIntegersParse) {
  for (const auto& [shape, dims] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"()", {}}, {"(5,)", {5}}, {"(2, 3)", {2, 3}}, {"(1, 3, 4, 4)", {1, 3, 4, 4}}, {"( 2 , 3 )", {2, 3}}}) {
    SCOPED_TRACE(shape);
    const int64_t n = NumElements(dims);
    auto a = ParseNpy(NpyBytes(Header(shape), static_cast<size_t>(n) * 4), "t.npy");
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    EXPECT_EQ(a->desc.dims, dims);
  }
}

TEST(NpyTest, MalformedShapesAreCorruptNotExceptions) {
  for (const std::string shape : {"", ",(1, 3)", "(1.0, 3)", "(1e3,)", "(-1, 3)", "(1, 3", "1, 3)", "(1,, 3)",
                                  "(1 3)", "(0x10,)", "(99999999999999999999,)"}) {
    SCOPED_TRACE(shape);
    auto a = ParseNpy(NpyBytes(Header(shape), 12), "t.npy");
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.status().code(), StatusCode::kCorrupt);
    EXPECT_NE(a.status().message().find("t.npy"), std::string::npos) << a.status().ToString();
  }
  // The probe's header: the value of 'shape' is empty before a stray comma.
  auto probe = ParseNpy(NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape':,(1, 3, 32, 32), }", 12288), "p.npy");
  EXPECT_EQ(probe.status().code(), StatusCode::kCorrupt);
}

TEST(NpyTest, ShapesWhoseBytesOverflowAreTooLarge) {
  auto a = ParseNpy(NpyBytes(Header("(4294967296, 4294967296)"), 16), "big.npy");
  ASSERT_TRUE(Refused(a, StatusCode::kCorrupt, "too large"));
}

}  // namespace
}  // namespace ge
