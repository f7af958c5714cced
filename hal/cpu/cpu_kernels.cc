#include "cpu_kernels.h"

namespace ge::hal {

void RegisterCpuKernels(KernelRegistry& r) {
  RegisterConvKernels(r);
  RegisterDeconvKernels(r);
  RegisterResizeKernels(r);
  RegisterMatMulKernels(r);
  RegisterPoolKernels(r);
  RegisterNormKernels(r);
  RegisterSoftmaxKernels(r);
  RegisterUnaryKernels(r);
  RegisterBinaryKernels(r);
  RegisterSumKernels(r);
  RegisterShapeKernels(r);
  RegisterDataMovementKernels(r);
  RegisterReduceKernels(r);
  RegisterSpaceBatchKernels(r);
  RegisterIndexKernels(r);
  RegisterLayoutKernels(r);
  RegisterAippKernels(r);
}

}  // namespace ge::hal
