#include "cpu_kernels.h"
#include "kernels/channel_affine_kernels.h"

namespace ge::hal {

void RegisterCpuKernels(KernelRegistry& r) {
  RegisterConvKernels(r);
  RegisterDeconvKernels(r);
  RegisterResizeKernels(r);
  RegisterMatMulKernels(r);
  RegisterPoolKernels(r);
  RegisterNormKernels(r);
  RegisterChannelAffineKernels(r);
  RegisterConcatAffineKernels(r);
  RegisterSoftmaxKernels(r);
  RegisterAttentionKernels(r);
  RegisterRnnKernels(r);
  RegisterUnaryKernels(r);
  RegisterBinaryKernels(r);
  RegisterVariadicKernels(r);
  RegisterShapeKernels(r);
  RegisterDataMovementKernels(r);
  RegisterGatherElementsKernels(r);
  RegisterTriluKernels(r);
  RegisterReduceKernels(r);
  RegisterLossKernels(r);
  RegisterSpaceBatchKernels(r);
  RegisterIndexKernels(r);
  RegisterNonZeroKernels(r);
  RegisterNmsKernels(r);
  RegisterUniqueKernels(r);
  RegisterCompressKernels(r);
  RegisterLayoutKernels(r);
  RegisterAippKernels(r);
  RegisterGenerateKernels(r);
  RegisterDepthSpaceKernels(r);
  RegisterLocalNormKernels(r);
  RegisterReverseSequenceKernels(r);
  RegisterScatterKernels(r);
  RegisterGatherNdKernels(r);
  RegisterQuantKernels(r);
  RegisterIntegerMatMulKernels(r);
  RegisterIntegerConvKernels(r);
  RegisterEinsumKernels(r);
  RegisterGridSampleKernels(r);
  RegisterRoiAlignKernels(r);
  RegisterCropAndResizeKernels(r);
  RegisterDetKernels(r);
  RegisterWindowKernels(r);
  RegisterDftKernels(r);
  RegisterUnpoolKernels(r);
  RegisterLpKernels(r);
  RegisterMemoryKernels(r);
  RegisterControlKernels(r);
}

}  // namespace ge::hal
