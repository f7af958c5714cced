// acc[M x N] (int32) = (A - a_zp) x (B - b_zp) on oneDNN's int8 matmul, for
// the integer kernels whose zero points are one value each: A [M, K] u8 or
// i8, B [K, N] u8 or i8 (oneDNN takes i8 weights only, so a u8 B is shifted
// by -128 once, with its zero point: (B - zp) = (B - 128) - (zp - 128),
// exact). Exact in int32 like the plain loop it replaces, and on VNNI
// hardware many times faster.
#pragma once

#include <memory>
#include <vector>

#include "kernels/dnnl_context.h"

namespace ge::hal {

class Int8Gemm {
 public:
  // b_const: B's bytes when B is a constant (shifted and packed once), else null.
  static Result<std::unique_ptr<Int8Gemm>> Create(int64_t m, int64_t k, int64_t n, DataType a_type, DataType b_type,
                                                  const void* b_const);
  // b is ignored when B was constant. Zero points are already int32.
  Status Run(const void* a, const void* b, int32_t a_zp, int32_t b_zp, int32_t* acc);

 private:
  Int8Gemm() : stream_(dnnl_util::NewStream()) {}
  void ShiftB(const void* b);

  dnnl::stream stream_;
  int64_t k_ = 0, n_ = 0;
  bool b_u8_ = false, b_const_ = false;
  std::vector<int8_t> b_shifted_;  // u8 B - 128
  dnnl::memory a_, b_, acc_, a_zp_, b_zp_;
  int32_t a_zp_value_ = 0, b_zp_value_ = 0;
  std::vector<dnnl_util::Step> steps_;
  std::shared_ptr<const dnnl::memory> packed_b_;
};

}  // namespace ge::hal
