// ChannelAffine(X, scale, shift) with "activation" "" or "Relu", and the
// channel-broadcast Mul/Add, on the loops of channel_affine_loop.h. Both
// take X and Y in one layout (plain, blocked or channels last); the
// per-channel operands are C contiguous values, which a [N|1, C, 1, 1]
// tensor is in every layout.
#include "kernels/channel_affine_kernels.h"

#include <optional>
#include <vector>

#include "hal/fused_attrs.h"

#include "kernels/channel_affine_loop.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

size_t Other(size_t i) { return i == 0 ? 1 : 0; }

affine::Geometry GeometryOf(const TensorInfo& x) {
  affine::Geometry g;
  g.n = x.dims[0];
  g.c = x.dims[1];
  g.spatial = Product(x.dims, 2, x.dims.size());
  g.block = x.channel_block;
  return g;
}

// X and Y: f32 of rank >= 3, the same dims and layout, a layout the loops run.
Status CheckData(const KernelSpec& spec, const TensorInfo& x) {
  const TensorInfo& y = spec.outputs[0];
  if (x.dtype != DataType::kFloat32 || y.dtype != DataType::kFloat32) return NotSupported(spec, "only f32");
  if (x.dims.size() < 3) return NotSupported(spec, "rank " + std::to_string(x.dims.size()) + " (3 or more)");
  if (y.dims != x.dims || y.channel_block != x.channel_block)
    return Bad(spec, "output must have the input's dims " + DimsStr(x.dims) + " and layout");
  if (!affine::Handles(GeometryOf(x)))
    return NotSupported(spec, "layout with channel block " + std::to_string(x.channel_block) + " of " + DimsStr(x.dims));
  return Status::Ok();
}

// --- ChannelAffine ---------------------------------------------------------

Status CheckChannelAffine(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 3, 3, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckData(spec, x));
  return CheckScaleShift(spec, 1, x.dims[1]);
}

Result<KernelPtr> CreateChannelAffine(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckChannelAffine(spec));
  affine::Geometry g = GeometryOf(spec.inputs[0]);
  g.relu = ActivationFromName(spec.attrs.GetString(kAttrActivation, "")) == FusedActivation::kRelu;
  return MakeKernel([g](const void* const* in, void* const* out) {
    affine::Run(g, static_cast<const float*>(in[0]), static_cast<const float*>(in[1]),
                static_cast<const float*>(in[2]), static_cast<float*>(out[0]));
    return Status::Ok();
  });
}

// --- Mul / Add by a per-channel operand ------------------------------------

struct Broadcast {
  size_t full = 0;  // the operand with the output's shape
  bool per_image = false;
};

// One value per channel (and per image): [1|N, C, 1, ...].
bool PerChannel(const TensorInfo& v, const std::vector<int64_t>& out) {
  if (v.dims.size() != out.size() || v.dtype != DataType::kFloat32) return false;
  if (v.dims[0] != 1 && v.dims[0] != out[0]) return false;
  if (v.dims[1] != out[1]) return false;
  for (size_t k = 2; k < v.dims.size(); ++k)
    if (v.dims[k] != 1) return false;
  return true;
}

std::optional<Broadcast> BroadcastOf(const KernelSpec& spec) {
  if ((spec.op != "Mul" && spec.op != "Add") || spec.inputs.size() != 2 || spec.outputs.size() != 1) return {};
  const TensorInfo& y = spec.outputs[0];
  if (y.channel_block == 0 || y.dims.size() < 3 || y.dtype != DataType::kFloat32) return {};
  for (size_t full : {0, 1}) {
    const TensorInfo& x = spec.inputs[full];
    const TensorInfo& v = spec.inputs[Other(full)];
    if (x.dims != y.dims || x.channel_block != y.channel_block || x.dtype != y.dtype) continue;
    if (v.dims == y.dims || !PerChannel(v, y.dims)) continue;
    if (!affine::Handles(GeometryOf(x))) return {};
    return Broadcast{full, v.dims[0] != 1};
  }
  return {};
}

}  // namespace

bool IsChannelBroadcast(const KernelSpec& spec) { return BroadcastOf(spec).has_value(); }

Status CheckScaleShift(const KernelSpec& spec, size_t first, int64_t channels) {
  // ChannelAffine's and ConcatAffine's one attribute, which both check here
  static const KnownAttrs affine_attrs({kAttrActivation}, /*with_activation=*/false);
  GE_RETURN_IF_ERROR(affine_attrs.Check(spec));
  for (size_t i : {first, first + 1}) {
    const TensorInfo& p = spec.inputs[i];
    if (p.dtype != DataType::kFloat32 || p.channel_block != 0 || p.NumElements() != channels)
      return Bad(spec, "input " + std::to_string(i) + " must be " + std::to_string(channels) + " plain f32 values");
  }
  const std::string act = spec.attrs.GetString(kAttrActivation, "");
  if (!act.empty() && ActivationFromName(act) != FusedActivation::kRelu)
    return NotSupported(spec, "activation '" + act + "' (only Relu)");
  return Status::Ok();
}

Result<KernelPtr> CreateChannelBroadcast(const KernelSpec& spec) {
  const std::optional<Broadcast> b = BroadcastOf(spec);
  if (!b) return NotSupported(spec, "not a per-channel operand on a laid-out tensor");
  affine::Geometry g = GeometryOf(spec.inputs[b->full]);
  const bool mul = spec.op == "Mul";
  // The identity for the other half of the affine map: the loop always
  // multiplies and adds, which costs nothing next to the memory traffic.
  auto identity = std::make_shared<std::vector<float>>(static_cast<size_t>(g.c), mul ? 0.0f : 1.0f);
  (mul ? g.scale_stride : g.shift_stride) = b->per_image ? g.c : 0;
  const size_t full = b->full;
  return MakeKernel([g, identity, full, mul](const void* const* in, void* const* out) {
    const auto* x = static_cast<const float*>(in[full]);
    const auto* v = static_cast<const float*>(in[Other(full)]);
    affine::Run(g, x, mul ? v : identity->data(), mul ? identity->data() : v, static_cast<float*>(out[0]));
    return Status::Ok();
  });
}

void RegisterChannelAffineKernels(KernelRegistry& r) {
  r.Register("ChannelAffine", CheckChannelAffine, CreateChannelAffine, LayoutSupport::kOwn);
}

}  // namespace ge::hal
