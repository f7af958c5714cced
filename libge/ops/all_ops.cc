// The built-in op set: every family registers its ops here.
#include "op_families.h"

namespace ge {

void RegisterBuiltinOps(OpRegistry& r) {
  RegisterIrOps(r);
  RegisterUnaryOps(r);
  RegisterBinaryOps(r);
  RegisterConvOps(r);
  RegisterPoolOps(r);
  RegisterNormOps(r);
  RegisterMatMulOps(r);
  RegisterShapeOps(r);
  RegisterReshapeOps(r);
  RegisterMovementOps(r);
  RegisterSliceOps(r);
  RegisterSpaceBatchOps(r);
  RegisterIndexOps(r);
  RegisterDynamicOps(r);
  RegisterReduceOps(r);
  RegisterResizeOps(r);
  RegisterLossOps(r);
  RegisterRnnOps(r);
  RegisterControlOps(r);
  RegisterFusedOps(r);
  RegisterAttentionOps(r);
  RegisterAippOps(r);
  RegisterGenerateOps(r);
  RegisterDepthSpaceOps(r);
  RegisterLocalNormOps(r);
  RegisterReverseSequenceOps(r);
  RegisterScatterOps(r);
  RegisterQuantOps(r);
  RegisterEinsumOps(r);
  RegisterSampleOps(r);
  RegisterLinalgOps(r);
  RegisterSignalOps(r);
  RegisterUnpoolOps(r);
  RegisterMemoryOps(r);
}

}  // namespace ge
