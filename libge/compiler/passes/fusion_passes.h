// The fusion stage (DESIGN.md "Compiler"): each pass rewrites a pattern into
// one node the backend runs as a single kernel (oneDNN post-ops, folded
// weights). All are switchable; docs/passes.md "## fusion" describes them.
#pragma once

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
Pass ConvPostOpsPass();        // conv_post_ops
Pass GemmPostOpsPass();        // gemm_post_ops

}  // namespace ge
