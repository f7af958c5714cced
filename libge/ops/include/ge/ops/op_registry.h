// The op registry: one entry per op type with its arity, attribute defaults,
// shape/dtype inference and the memory semantics the conflict passes read.
// Op type names are ONNX's (Conv, Gemm, ...) plus the IR's own (Data,
// NetOutput, Const).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ge/ir/graph.h"
#include "ge/ir/tensor.h"

namespace ge {

// The largest stride, dilation, kernel size, pad or block size a window op
// accepts (2^31 - 1): far beyond any real model, and far from overflowing
// the window arithmetic. The parsers refuse larger values with the same bound.
constexpr int64_t kMaxWindowValue = (int64_t{1} << 31) - 1;

// What inference of one node sees. Input descs come from the producers'
// output descs; input values are known for constants and for small tensors
// the shape-inference pass could evaluate (Shape -> Gather -> Concat chains).
// The node attribute the mixed_precision pass sets on a node it runs in
// bfloat16: "bf16" (float outputs bf16) or "bf16_f32_out" (bf16 compute,
// float32 outputs). Inference applies the op's own type rules to its float32
// form: bf16 inputs read as f32, then the float outputs take the attribute's
// type (InferNode).
inline constexpr const char* kPrecisionAttr = "_precision";

class InferContext {
 public:
  using ValueFn = std::function<const Tensor*(size_t input)>;
  InferContext(Node& node, ValueFn values);

  Node& node() { return node_; }
  size_t num_inputs() const { return node_.num_inputs(); }
  bool has_input(size_t i) const { return node_.HasInput(i); }
  // Description of input i as produced upstream (dtype kUndefined if absent).
  const TensorDesc& input(size_t i) const;
  // Known value of input i, or nullptr.
  const Tensor* input_value(size_t i) const { return has_input(i) && values_ ? values_(i) : nullptr; }
  size_t num_outputs() const { return node_.num_outputs(); }
  TensorDesc& output(size_t i) { return node_.output_desc(i); }
  // A failure naming this node: "node x (Reshape): <msg>".
  Status Error(const std::string& msg) const { return InvalidArgument("node " + node_.Label() + ": " + msg); }
  // A valid model asking for what ge lacks: "node x (Cast): <msg>" as Unsupported.
  Status NotSupported(const std::string& msg) const { return Unsupported("node " + node_.Label() + ": " + msg); }

 private:
  Node& node_;
  ValueFn values_;
  bool bf16_as_f32_ = false;              // kPrecisionAttr set: bf16 inputs read as f32
  mutable std::vector<TensorDesc> as_f32_;  // those inputs' f32 forms, one slot per input
  static const TensorDesc kAbsent;
};

using InferFn = std::function<Status(InferContext&)>;

// How a node treats the memory of one input (GE's InputRWType, the
// `_input_mutable` attribute): read only; written, and the write is meant to
// be seen by every later reader (Assign, a variable update); or written but
// only for the op's own use (an HCCL collective working in place, While's
// loop state), so other readers must not see it.
enum class InputMutability { kReadOnly = 0, kWriteable = 1, kScopeWriteable = 2 };

// Memory semantics (after GE's anchor attributes), read by the memory passes
// (docs/memory-conflicts.md). Everything defaults to "plain op".
struct MemorySemantics {
  // Output i may share input ref_input[i]'s buffer without copy (Reshape,
  // Squeeze, Identity ...). -1: no reference. GE's `reference`.
  std::vector<int> reference_outputs;
  // Outputs that may be computed in place over the same-index input.
  std::vector<int> inplace_outputs;
  // Outputs that may be computed in place over another input, {output,
  // input}: a Conv with fused_sum accumulates into its residual (input 3).
  std::vector<std::pair<int, int>> inplace_over;
  // The input output o may be computed over, or -1.
  int InplaceInput(int o) const {
    for (int k : inplace_outputs)
      if (k == o) return o;
    for (const auto& [out, in] : inplace_over)
      if (out == o) return in;
    return -1;
  }
  bool continuous_input = false;   // inputs must be contiguous (e.g. Concat without copy)
  bool continuous_output = false;  // outputs contiguous (Split)
  // The same, without alignment padding between the tensors
  // (`_no_padding_continuous_input/_output`).
  bool nopadding_continuous_input = false;
  bool nopadding_continuous_output = false;
  // Per input (missing entries: read-only). `_input_mutable` on the op.
  std::vector<InputMutability> input_mutability;
  // Outputs the kernel accumulates into (atomic add): the memory must be
  // zero before the op runs (AtomicAddrClean).
  std::vector<int> atomic_outputs;
  // Output 0 is a variable's memory (GE's ref_var_src_var_name): the op
  // owns state that outlives one read; never folded, merged or removed.
  bool variable = false;
};

struct OpDef {
  std::string type;
  int min_inputs = 0;
  int max_inputs = 0;  // -1: variadic
  int min_outputs = 1;
  int max_outputs = 1;  // -1: variadic
  std::map<std::string, AttrValue> attr_defaults;
  InferFn infer;
  MemorySemantics memory;
  // Output shapes that depend on input values, not only on input shapes:
  // inference reads the values of these inputs when they are known
  // (Reshape's shape, Range's bounds, TopK's k). When they are not known at
  // compile time the outputs are dynamic, and the v2 runtime infers them per
  // call from the values in memory.
  std::vector<int> value_inputs;
  // Output shapes only the computation knows (NonZero, NonMaxSuppression,
  // Unique, Compress): the kernel answers them per call (hal::Kernel::OutputDims).
  bool computed_shape = false;
};

class OpRegistry {
 public:
  // The process-wide registry with every built-in op.
  static const OpRegistry& Global();
  void Register(OpDef def);
  const OpDef* Find(const std::string& type) const;
  std::vector<std::string> Types() const;

 private:
  std::map<std::string, OpDef> defs_;
};

// Fills every OpDef of the built-in ops into `r` (libge/ops/all_ops.cc).
void RegisterBuiltinOps(OpRegistry& r);

// Checks arity against the def and runs its inference; errors name the node.
Status InferNode(Node& node, const InferContext::ValueFn& values);

// ONNX multidirectional broadcasting of two shapes (unknown dims propagate).
Result<std::vector<int64_t>> BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

}  // namespace ge
