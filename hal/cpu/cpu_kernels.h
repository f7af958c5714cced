// Registration of every CPU kernel. Each kernel family lives in its own file
// under hal/cpu/kernels/ and exposes one Register*Kernels function.
#pragma once

#include "hal/kernel.h"

namespace ge::hal {

void RegisterCpuKernels(KernelRegistry& r);

// oneDNN-backed families.
void RegisterConvKernels(KernelRegistry& r);        // Conv (grouped, depthwise)
void RegisterDeconvKernels(KernelRegistry& r);      // ConvTranspose
void RegisterResizeKernels(KernelRegistry& r);      // Resize (nearest, linear, cubic)
void RegisterMatMulKernels(KernelRegistry& r);      // MatMul, Gemm
void RegisterPoolKernels(KernelRegistry& r);        // MaxPool, AveragePool, GlobalAveragePool
void RegisterNormKernels(KernelRegistry& r);        // BatchNormalization, LayerNormalization
void RegisterSoftmaxKernels(KernelRegistry& r);     // Softmax
void RegisterAttentionKernels(KernelRegistry& r);   // FusedAttention (matmul, softmax, matmul)
void RegisterRnnKernels(KernelRegistry& r);         // LSTM, GRU, RNN (reference loop where oneDNN cannot)
// Own loops.
void RegisterUnaryKernels(KernelRegistry& r);       // Relu, Clip, Sigmoid, Tanh, Erf, Sqrt, ...
void RegisterBinaryKernels(KernelRegistry& r);      // Add, Sub, Mul, Div, Pow, Mod, Equal, Where (broadcasting)
void RegisterVariadicKernels(KernelRegistry& r);    // Sum, Mean, Max, Min (variadic, broadcasting)
void RegisterShapeKernels(KernelRegistry& r);       // Reshape, Flatten, Squeeze, Unsqueeze, Identity, Shape, Cast, Expand
void RegisterDataMovementKernels(KernelRegistry& r);  // Transpose, Concat, Split, Slice, Gather, Pad
void RegisterGatherElementsKernels(KernelRegistry& r);  // GatherElements
void RegisterTriluKernels(KernelRegistry& r);       // Trilu
void RegisterLayoutKernels(KernelRegistry& r);      // TransData (plain <-> channel-blocked)
void RegisterReduceKernels(KernelRegistry& r);      // ReduceMean, ...
void RegisterLossKernels(KernelRegistry& r);        // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void RegisterSpaceBatchKernels(KernelRegistry& r);  // SpaceToBatchND, BatchToSpaceND (NCHW)
void RegisterIndexKernels(KernelRegistry& r);       // CumSum, TopK
// Output shapes the computation decides (kernels/computed_kernel.h).
void RegisterNonZeroKernels(KernelRegistry& r);     // NonZero
void RegisterNmsKernels(KernelRegistry& r);         // NonMaxSuppression
void RegisterUniqueKernels(KernelRegistry& r);      // Unique
void RegisterCompressKernels(KernelRegistry& r);    // Compress
void RegisterAippKernels(KernelRegistry& r);        // Aipp (ATC's image preprocessing)
void RegisterGenerateKernels(KernelRegistry& r);    // EyeLike, OneHot
void RegisterDepthSpaceKernels(KernelRegistry& r);  // DepthToSpace, SpaceToDepth
void RegisterLocalNormKernels(KernelRegistry& r);   // LRN, MeanVarianceNormalization
void RegisterReverseSequenceKernels(KernelRegistry& r);  // ReverseSequence
void RegisterScatterKernels(KernelRegistry& r);     // ScatterElements, Scatter, ScatterND
void RegisterGatherNdKernels(KernelRegistry& r);    // GatherND
void RegisterQuantKernels(KernelRegistry& r);       // QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear
void RegisterIntegerMatMulKernels(KernelRegistry& r);  // MatMulInteger, QLinearMatMul
void RegisterIntegerConvKernels(KernelRegistry& r);    // ConvInteger, QLinearConv
void RegisterEinsumKernels(KernelRegistry& r);      // Einsum
void RegisterGridSampleKernels(KernelRegistry& r);  // GridSample
void RegisterRoiAlignKernels(KernelRegistry& r);    // RoiAlign
void RegisterCropAndResizeKernels(KernelRegistry& r);  // CropAndResize (TensorFlow's, NCHW)
void RegisterDetKernels(KernelRegistry& r);         // Det
void RegisterWindowKernels(KernelRegistry& r);      // HannWindow, HammingWindow, BlackmanWindow, MelWeightMatrix
void RegisterDftKernels(KernelRegistry& r);         // DFT, STFT
void RegisterUnpoolKernels(KernelRegistry& r);      // MaxUnpool
void RegisterLpKernels(KernelRegistry& r);          // LpPool, GlobalLpPool, LpNormalization, MaxRoiPool
void RegisterMemoryKernels(KernelRegistry& r);      // Variable, Assign(Add), ScatterAdd, HcomAllReduce, HcomBroadcast
void RegisterControlKernels(KernelRegistry& r);     // MemcpyAsync, BranchIndex, LoopInit, LoopCondIndex, LoopIncrement (linked control flow)

}  // namespace ge::hal
