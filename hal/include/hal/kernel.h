// Kernels: what the backend can compute, and the objects that compute it.
//
// The compiler asks the registry whether a node is supported (Supports) and
// the runtimes create kernels once at load (Create). Run() is the only thing
// called per inference; it must not allocate unless the kernel says so.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ge_base/dtype.h"
#include "ge_base/status.h"
#include "ge_base/tensor_bytes.h"

namespace ge::hal {

// TensorInfo::channel_block of a channels-last (nhwc) tensor.
constexpr int32_t kChannelsLast = -1;

struct TensorInfo {
  DataType dtype = DataType::kUndefined;  // kUndefined marks an absent optional input
  std::vector<int64_t> dims;              // static at kernel creation, always in NCHW order
  // Memory layout: 0 is plain row-major; b > 0 blocks the channels (dim 1)
  // by b: [N][C/b][spatial...][b] (oneDNN's nChw8c / nChw16c, GE's NC1HWC0);
  // kChannelsLast puts the channels innermost: [N][spatial...][C] (nhwc).
  // dims stay logical; C is a multiple of b, so Bytes() does not change.
  int32_t channel_block = 0;
  int64_t NumElements() const { return ge::NumElements(dims); }
  // The checked size (ge_base/tensor_bytes.h). KernelRegistry::Create
  // refuses a spec any of whose known sizes is refused here, so a kernel's
  // Bytes() of its spec is always the true size; outside a created kernel's
  // spec, an unsizable tensor gives 0, never a wrapped count.
  Result<size_t> CheckedBytes() const { return TensorBytes(dims, dtype); }
  size_t Bytes() const {
    Result<size_t> b = CheckedBytes();
    return b.ok() ? *b : 0;
  }
  bool present() const { return dtype != DataType::kUndefined; }
};

// Attributes as a kernel sees them (no graphs, no tensors).
class Attrs {
 public:
  using Value = std::variant<int64_t, double, std::string, std::vector<int64_t>, std::vector<double>>;

  void Set(const std::string& name, Value v) { values_[name] = std::move(v); }
  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  int64_t GetInt(const std::string& name, int64_t def) const;
  float GetFloat(const std::string& name, float def) const;
  std::string GetString(const std::string& name, const std::string& def) const;
  std::vector<int64_t> GetInts(const std::string& name, const std::vector<int64_t>& def = {}) const;
  std::vector<float> GetFloats(const std::string& name, const std::vector<float>& def = {}) const;
  const std::map<std::string, Value>& values() const { return values_; }

 private:
  std::map<std::string, Value> values_;
};

// A constant input already in the layout a kernel computes with, made ahead
// of time by KernelRegistry::Pack (the compiler stores it in the .om), so
// creating the kernel at load copies and reorders nothing. `format` names
// the layout exactly; only the kernel that made it reads it. The bytes are
// 64-byte aligned and outlive the kernel.
struct PackedInput {
  const void* data = nullptr;
  size_t size = 0;
  std::string format;
};

// What Pack makes for one constant input.
struct PackedConstant {
  size_t input = 0;
  std::string format;
  std::vector<uint8_t> bytes;
};

// Everything a kernel needs to be created: op type (ONNX names), attributes,
// static input/output types and shapes, and the data of inputs that are
// constant at load time (weights), so a kernel can pre-pack them once.
struct KernelSpec {
  std::string op;
  std::string name;  // node name, for messages
  Attrs attrs;
  std::vector<TensorInfo> inputs;
  std::vector<TensorInfo> outputs;
  // Same length as inputs (or empty); non-null where the input is constant.
  // The pointed-to data outlives the kernel.
  std::vector<const void*> const_inputs;
  // Same length as inputs (or empty); set where a packed form of that
  // constant input exists. A kernel whose own choice of layout differs
  // (another CPU, another oneDNN) packs const_inputs itself, as without it.
  std::vector<PackedInput> packed_inputs;

  const void* ConstInput(size_t i) const { return i < const_inputs.size() ? const_inputs[i] : nullptr; }
  const PackedInput* Packed(size_t i) const {
    return i < packed_inputs.size() && packed_inputs[i].data ? &packed_inputs[i] : nullptr;
  }
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  // inputs[i] / outputs[j] point to buffers of spec.inputs[i].Bytes() /
  // spec.outputs[j].Bytes(); absent optional inputs are nullptr. Buffers are
  // 64-byte aligned. Runs on the calling thread (oneDNN may fan out). An
  // error names the node, "node NAME (OP): ...", as the registry's do: the
  // runtimes pass it on without adding the node again.
  virtual Status Run(const void* const* inputs, void* const* outputs) = 0;
  // Ops whose output shapes only the computation knows (NonZero,
  // NonMaxSuppression, Unique: OpDef::computed_shape) are created with those
  // output dims unknown (-1). Per call the runtime asks OutputDims with the
  // inputs, allocates the outputs, then calls Run with the same inputs; a
  // kernel may keep what it computed here for that Run. `dims` gets one
  // entry per output. Other kernels never see this call.
  virtual Status OutputDims(const void* const* inputs, std::vector<std::vector<int64_t>>& dims) {
    (void)inputs;
    (void)dims;
    return Internal("this kernel's output shapes are known before it runs");
  }
};

using KernelCreateFn = std::function<Result<std::unique_ptr<Kernel>>(const KernelSpec&)>;
// Answers whether this spec (dtypes, attributes, ranks) can be run; the
// message of a non-OK status says why not.
using KernelSupportFn = std::function<Status(const KernelSpec&)>;
// Packs the constant inputs of `spec` (const_inputs set) the way Create on
// this machine would; inputs it keeps as they are are left out.
using KernelPackFn = std::function<Result<std::vector<PackedConstant>>(const KernelSpec&)>;

// Which memory layouts a kernel takes. The registry enforces kPlain and
// kElementwise itself, so a kernel written for plain memory never sees a
// blocked tensor.
enum class LayoutSupport {
  kPlain,        // every tensor plain (channel_block 0)
  kElementwise,  // layout-oblivious: all tensors share one layout and, when
                 // blocked, the same dims (no broadcast): a flat loop is right
  kOwn,          // the kernel reads channel_block and checks it itself
};

class KernelRegistry {
 public:
  // support may be empty: then every spec of that op is accepted by Supports()
  // and Create() reports what it cannot do.
  void Register(const std::string& op, KernelSupportFn support, KernelCreateFn create,
                LayoutSupport layouts = LayoutSupport::kPlain);
  // Ops whose kernels pack constant inputs (weights) register how, so the
  // compiler can do it once ahead of load. `op` must be registered.
  void SetPacker(const std::string& op, KernelPackFn pack);
  bool HasOp(const std::string& op) const { return entries_.count(op) != 0; }
  // Errors of both name the node, "node NAME (OP): ..." (from spec.name and
  // spec.op), once.
  Status Supports(const KernelSpec& spec) const;
  Result<std::unique_ptr<Kernel>> Create(const KernelSpec& spec) const;
  // The packed forms of spec's constant inputs; empty for an op without a
  // packer or a spec whose kernel packs nothing. Errors name the node.
  Result<std::vector<PackedConstant>> Pack(const KernelSpec& spec) const;
  std::vector<std::string> Ops() const;

 private:
  struct Entry {
    KernelSupportFn support;
    KernelCreateFn create;
    LayoutSupport layouts = LayoutSupport::kPlain;
    KernelPackFn pack;
  };
  std::map<std::string, Entry> entries_;
};

}  // namespace ge::hal
