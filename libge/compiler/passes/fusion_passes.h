// The fusion stage (DESIGN.md "Compiler"): each pass rewrites a pattern into
// one node the backend runs as a single kernel (oneDNN post-ops, folded
// weights). All are switchable; docs/passes.md "## fusion" describes them.
#pragma once

#include <cstddef>

#include "pass.h"

namespace ge {

Pass AtrousConvPass();         // atrous_conv
Pass ConvBnFoldPass();         // conv_bn_fold
Pass ConvMulAddFoldPass();     // conv_mul_add_fold
Pass GemmBnFoldPass();         // gemm_bn_fold
Pass LayerNormFusionPass();    // layernorm_fusion
Pass GeluFusionPass();         // gelu_fusion
Pass SiluFusionPass();         // silu_fusion
Pass HardSwishFusionPass();    // hardswish_fusion
Pass BnReluFusionPass();       // bn_relu_fusion
Pass ConcatBnFusionPass();     // concat_bn_fusion
Pass AttentionFusionPass();    // attention_fusion
Pass MatMulAddToGemmPass();    // matmul_add_to_gemm
Pass MatMulSliceSplitPass();   // matmul_slice_split
Pass ConcatConvSplitPass();    // concat_conv_split
Pass ConvPostOpsPass();        // conv_post_ops
Pass GemmPostOpsPass();        // gemm_post_ops
Pass ConvInputScalePass();     // conv_input_scale

// concat_conv_split's cost guard: the most partial convs one Concat may
// become (its inputs times the convs reading it, through pushed pools).
// Each partial conv is a kernel of its own and re-reads the previous one's
// result for its sum, so many of them cost more than the Concat's copy.
// Measured 2026-12-07 (ge-run --mode sink --loop 100, p50, 2 AVX-512 cores,
// nhwc convs, three rounds on/off): squeezenet1_1, 2 per Concat: 2.42-2.61
// ms split, 2.60-3.01 ms not; googlenet, 16 per Concat (4 inputs read by 3
// convs and a pooled conv): 10.5-10.8 ms split, 9.3-10.1 ms not, so it stays;
// densenet121 has nothing to split (a BatchNorm reads each Concat).
// Synthetic blocks (k 3x3 branch convs -> Concat -> r 1x1 convs, 5 runs
// each): 2 and 4 partial convs faster or even at 55x55, 28x28 and 14x14;
// 6 and 8 even to 2 % slower at 14x14.
inline constexpr size_t kConcatConvSplitMaxConvs = 4;

}  // namespace ge
