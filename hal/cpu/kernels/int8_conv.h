// acc (int32, N x M x spatial, plain) = the convolution of (x - x_zp) with w
// on oneDNN's int8 convolution, for ConvInteger / QLinearConv whose weight
// zero point is neutral: i8 weights with zero point 0, or u8 weights with
// zero point 128 everywhere (shifted by -128 to i8 with zero point 0, exact;
// oneDNN's convolution takes no weight zero point). Padding contributes
// nothing, as ONNX pads x with its zero point.
#pragma once

#include <memory>
#include <vector>

#include "kernels/dnnl_context.h"

namespace ge::hal {

class Int8Conv {
 public:
  // w_dims as oneDNN wants them ({G, M/G, C/G, k...} when grouped);
  // w_const: the weights' bytes when constant (shifted and packed once).
  static Result<std::unique_ptr<Int8Conv>> Create(const std::vector<int64_t>& x_dims,
                                                  const std::vector<int64_t>& w_dims,
                                                  const std::vector<int64_t>& y_dims, const dnnl_util::Window& win,
                                                  DataType x_type, DataType w_type, const void* w_const);
  Status Run(const void* x, const void* w, int32_t x_zp, int32_t* acc);

 private:
  Int8Conv() : stream_(dnnl_util::NewStream()) {}
  void ShiftW(const void* w);

  dnnl::stream stream_;
  bool w_u8_ = false, w_const_ = false;
  std::vector<int8_t> w_shifted_;  // u8 w - 128
  dnnl::memory x_, w_, y_, x_zp_;
  int32_t x_zp_value_ = 0;
  std::vector<dnnl_util::Step> steps_;
  std::shared_ptr<const dnnl::memory> packed_w_;
};

}  // namespace ge::hal
