// Output-shape rules that more than one op family follows: MatMul's (also
// MatMulInteger, QLinearMatMul) and Conv's (also ConvInteger, QLinearConv),
// with the operands at any input positions. Private to libge/ops.
#pragma once

#include "infer_util.h"

namespace ge::infer {

// numpy matmul of inputs a and b: 1-D operands promoted, batch dims
// broadcast; UnknownRank() when either rank is unknown.
Result<Dims> MatMulOutDims(InferContext& ctx, size_t a, size_t b);
// N x M x spatial... of a convolution of input x by weights w (kernel_shape,
// strides, pads, dilations, auto_pad, group from the node); UnknownRank()
// when neither rank is known.
Result<Dims> ConvOutDims(InferContext& ctx, size_t x, size_t w);

}  // namespace ge::infer
