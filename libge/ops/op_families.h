// One registration function per op family; RegisterBuiltinOps (all_ops.cc)
// calls them all. Private to libge/ops.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "ge/ops/op_registry.h"

namespace ge {

// Builds an OpDef: OpBuilder("Relu").Inputs(1, 1).Infer(f).Inplace().
// Defaults: no inputs, one output, no inference, no memory semantics.
class OpBuilder {
 public:
  explicit OpBuilder(std::string type) { d_.type = std::move(type); }
  OpBuilder& Inputs(int min, int max) { d_.min_inputs = min; d_.max_inputs = max; return *this; }
  OpBuilder& Outputs(int min, int max) { d_.min_outputs = min; d_.max_outputs = max; return *this; }
  OpBuilder& Defaults(std::map<std::string, AttrValue> defaults) { d_.attr_defaults = std::move(defaults); return *this; }
  OpBuilder& Infer(InferFn f) { d_.infer = std::move(f); return *this; }
  OpBuilder& Inplace() { d_.memory.inplace_outputs = {0}; return *this; }      // output 0 over input 0
  OpBuilder& InplaceOver(int out, int in) { d_.memory.inplace_over.push_back({out, in}); return *this; }
  OpBuilder& Reference() { d_.memory.reference_outputs = {0}; return *this; }  // output 0 is input 0's buffer
  OpBuilder& ContinuousInput() { d_.memory.continuous_input = true; return *this; }
  OpBuilder& ContinuousOutput() { d_.memory.continuous_output = true; return *this; }
  OpBuilder& NoPaddingContinuousInput() { d_.memory.nopadding_continuous_input = true; return *this; }
  OpBuilder& NoPaddingContinuousOutput() { d_.memory.nopadding_continuous_output = true; return *this; }
  OpBuilder& Mutable(std::vector<InputMutability> m) { d_.memory.input_mutability = std::move(m); return *this; }
  OpBuilder& Atomic(std::vector<int> outputs) { d_.memory.atomic_outputs = std::move(outputs); return *this; }
  OpBuilder& Variable() { d_.memory.variable = true; return *this; }
  OpBuilder& ValueInputs(std::vector<int> inputs) { d_.value_inputs = std::move(inputs); return *this; }
  OpBuilder& ComputedShape() { d_.computed_shape = true; return *this; }
  operator OpDef() const { return d_; }  // NOLINT: r.Register(OpBuilder(...)...)

 private:
  OpDef d_;
};

void RegisterIrOps(OpRegistry& r);          // Data, NetOutput, Const, TransData
void RegisterUnaryOps(OpRegistry& r);       // Relu, Sigmoid, Cast, Clip, Gelu, ...
void RegisterBinaryOps(OpRegistry& r);      // Add, ..., comparisons, And/Or, Max/Min, Where
void RegisterConvOps(OpRegistry& r);        // Conv, ConvTranspose
void RegisterPoolOps(OpRegistry& r);        // MaxPool, AveragePool, LpPool, Global*Pool, MaxRoiPool
void RegisterNormOps(OpRegistry& r);        // Batch/Layer/Instance/LpNormalization, (Log)Softmax
void RegisterMatMulOps(OpRegistry& r);      // Gemm, MatMul
void RegisterShapeOps(OpRegistry& r);       // Shape, Size, ConstantOfShape, Range, Expand, Tile
void RegisterReshapeOps(OpRegistry& r);     // Reshape, Flatten, Squeeze, Unsqueeze
void RegisterMovementOps(OpRegistry& r);    // Transpose, Concat, Split, Gather(Elements), Pad, Trilu
void RegisterSliceOps(OpRegistry& r);       // Slice
void RegisterSpaceBatchOps(OpRegistry& r);  // SpaceToBatchND, BatchToSpaceND (NCHW)
void RegisterIndexOps(OpRegistry& r);       // CumSum, TopK
void RegisterDynamicOps(OpRegistry& r);     // NonZero, NonMaxSuppression, Unique, Compress (computed shapes)
void RegisterReduceOps(OpRegistry& r);      // Reduce*, ArgMax, ArgMin
void RegisterResizeOps(OpRegistry& r);      // Resize
void RegisterLossOps(OpRegistry& r);        // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void RegisterRnnOps(OpRegistry& r);         // LSTM, GRU, RNN
void RegisterControlOps(OpRegistry& r);     // If, Loop, Scan (subgraphs)
void RegisterFusedOps(OpRegistry& r);       // FusedMatMul (fusion passes' own ops)
void RegisterAttentionOps(OpRegistry& r);   // FusedAttention (attention_fusion)
void RegisterAippOps(OpRegistry& r);        // Aipp (ATC's image preprocessing)
void RegisterGenerateOps(OpRegistry& r);    // EyeLike, OneHot
void RegisterDepthSpaceOps(OpRegistry& r);  // DepthToSpace, SpaceToDepth
void RegisterLocalNormOps(OpRegistry& r);   // LRN, MeanVarianceNormalization
void RegisterReverseSequenceOps(OpRegistry& r);  // ReverseSequence
void RegisterScatterOps(OpRegistry& r);     // ScatterElements, Scatter, ScatterND, GatherND
void RegisterQuantOps(OpRegistry& r);       // (De)QuantizeLinear, DynamicQuantizeLinear, QLinear*, *Integer
void RegisterEinsumOps(OpRegistry& r);      // Einsum
void RegisterSampleOps(OpRegistry& r);      // GridSample, RoiAlign, CropAndResize
void RegisterLinalgOps(OpRegistry& r);      // Det
void RegisterSignalOps(OpRegistry& r);      // Hann/Hamming/BlackmanWindow, DFT, STFT, MelWeightMatrix
void RegisterUnpoolOps(OpRegistry& r);      // MaxUnpool
void RegisterMemoryOps(OpRegistry& r);      // Variable, Assign(Add), ScatterAdd, Hcom*, MemcpyAsync (memory semantics)

}  // namespace ge
