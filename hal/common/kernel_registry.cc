#include <algorithm>
#include <type_traits>

#include "hal/kernel.h"

namespace ge::hal {

int64_t Attrs::GetInt(const std::string& name, int64_t def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<int64_t>(&it->second)) return *v;
  if (auto* v = std::get_if<double>(&it->second)) return static_cast<int64_t>(*v);
  return def;
}

float Attrs::GetFloat(const std::string& name, float def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<double>(&it->second)) return static_cast<float>(*v);
  if (auto* v = std::get_if<int64_t>(&it->second)) return static_cast<float>(*v);
  return def;
}

std::string Attrs::GetString(const std::string& name, const std::string& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::string>(&it->second)) return *v;
  return def;
}

std::vector<int64_t> Attrs::GetInts(const std::string& name, const std::vector<int64_t>& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
  return def;
}

std::vector<float> Attrs::GetFloats(const std::string& name, const std::vector<float>& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::vector<double>>(&it->second)) return std::vector<float>(v->begin(), v->end());
  return def;
}

void KernelRegistry::Register(const std::string& op, KernelSupportFn support, KernelCreateFn create,
                              LayoutSupport layouts) {
  entries_[op] = Entry{std::move(support), std::move(create), layouts, {}};
}

void KernelRegistry::SetPacker(const std::string& op, KernelPackFn pack) { entries_.at(op).pack = std::move(pack); }

namespace {

// The registry's half of LayoutSupport: kPlain and kElementwise are checked
// here so that kernels written for plain memory need not know layouts.
Status CheckLayouts(const KernelSpec& spec, LayoutSupport layouts) {
  if (layouts == LayoutSupport::kOwn) return Status::Ok();
  int32_t block = 0;
  bool seen = false, mixed = false;
  // A single value (Clip's bounds, a scalar operand) broadcasts the same in
  // any layout; it must be plain itself.
  auto scalar = [](const TensorInfo& t) { return t.NumElements() == 1 && t.channel_block == 0; };
  auto visit = [&](const TensorInfo& t) {
    if (!t.present() || scalar(t)) return;
    if (!seen) block = t.channel_block;
    seen = true;
    mixed |= t.channel_block != block;
  };
  for (const TensorInfo& t : spec.inputs) visit(t);
  for (const TensorInfo& t : spec.outputs) visit(t);
  if (block == 0 && !mixed) return Status::Ok();
  const std::string what = "node " + spec.name + " (" + spec.op + "): ";
  if (layouts == LayoutSupport::kPlain) return Unsupported(what + "the kernel takes plain layouts only");
  if (mixed) return Unsupported(what + "an elementwise kernel needs one layout for all its tensors");
  const std::vector<int64_t>& dims = spec.outputs.empty() ? spec.inputs[0].dims : spec.outputs[0].dims;
  for (const TensorInfo& t : spec.inputs)
    if (t.present() && !scalar(t) && t.dims != dims) return Unsupported(what + "blocked layout with broadcasting");
  if (dims.size() < 3 || (block > 0 && dims[1] % block != 0))
    return Unsupported(what + "blocked layout needs rank >= 3 and channels divisible by " + std::to_string(block));
  return Status::Ok();
}

// Every tensor of a spec has a size that fits (ge_base/tensor_bytes.h):
// shapes, the compiler's and those inferred at run time, reach kernels only
// through Supports. Outputs of
// computed-shape kernels are -1 until they run, and are left to them.
Status CheckTensorSizes(const KernelSpec& spec) {
  auto check = [&spec](const TensorInfo& t, const std::string& what) -> Status {
    if (!t.present()) return Status::Ok();
    Result<size_t> b = t.CheckedBytes();
    if (!b.ok()) return b.status().Annotated("node " + spec.name + " (" + spec.op + ") " + what);
    return Status::Ok();
  };
  for (size_t i = 0; i < spec.inputs.size(); ++i) GE_RETURN_IF_ERROR(check(spec.inputs[i], "input " + std::to_string(i)));
  for (size_t j = 0; j < spec.outputs.size(); ++j) {
    const std::vector<int64_t>& d = spec.outputs[j].dims;
    if (std::find(d.begin(), d.end(), int64_t{-1}) != d.end()) continue;
    GE_RETURN_IF_ERROR(check(spec.outputs[j], "output " + std::to_string(j)));
  }
  return Status::Ok();
}

// True when the kernel has outputs and all of them hold zero elements (batch
// 0): there is nothing to compute, and libraries such as oneDNN divide by a
// zero dim while setting up (SIGFPE), so no op kernel is created at all.
bool AllOutputsEmpty(const KernelSpec& spec) {
  bool any = false;
  for (const TensorInfo& t : spec.outputs) {
    if (!t.present()) continue;
    if (t.NumElements() != 0) return false;
    any = true;
  }
  return any;
}

// The kernel of a node whose outputs are all empty: writes nothing.
class EmptyOutputsKernel final : public Kernel {
 public:
  Status Run(const void* const*, void* const*) override { return Status::Ok(); }
};

// The registry's statuses name the node once, whether or not the kernel's
// own message already does (kernel.h): callers add nothing.
Status NamedByNode(const KernelSpec& spec, const Status& s) {
  const std::string where = "node " + spec.name + " (" + spec.op + ")";
  if (s.ok() || s.message().rfind(where + ": ", 0) == 0) return s;
  return s.Annotated(where);
}

}  // namespace

Status KernelRegistry::Supports(const KernelSpec& spec) const {
  auto it = entries_.find(spec.op);
  if (it == entries_.end()) return NamedByNode(spec, Unsupported("no kernel for op type " + spec.op));
  GE_RETURN_IF_ERROR(CheckLayouts(spec, it->second.layouts));
  // Before the kernel's own check: a kernel plans with the dims (oneDNN's
  // strides are their products), which must not overflow.
  GE_RETURN_IF_ERROR(CheckTensorSizes(spec));
  if (it->second.support) return NamedByNode(spec, it->second.support(spec));
  return Status::Ok();
}

Result<std::unique_ptr<Kernel>> KernelRegistry::Create(const KernelSpec& spec) const {
  GE_RETURN_IF_ERROR(Supports(spec));
  if (AllOutputsEmpty(spec)) return std::unique_ptr<Kernel>(new EmptyOutputsKernel());
  auto kernel = entries_.at(spec.op).create(spec);
  if (!kernel.ok()) return NamedByNode(spec, kernel.status());
  return kernel;
}

Result<std::vector<PackedConstant>> KernelRegistry::Pack(const KernelSpec& spec) const {
  auto it = entries_.find(spec.op);
  if (it == entries_.end() || !it->second.pack) return std::vector<PackedConstant>{};
  GE_RETURN_IF_ERROR(Supports(spec));
  if (AllOutputsEmpty(spec)) return std::vector<PackedConstant>{};  // Create makes no op kernel to pack for
  auto packed = it->second.pack(spec);
  if (!packed.ok()) return NamedByNode(spec, packed.status());
  return packed;
}

std::vector<std::string> KernelRegistry::Ops() const {
  std::vector<std::string> ops;
  for (const auto& [k, v] : entries_) ops.push_back(k);
  return ops;
}

}  // namespace ge::hal
