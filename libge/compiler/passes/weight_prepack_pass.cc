// weight_prepack: constant weights reordered once by the compiler into the
// layout the target's kernel computes with, and stored with the node
// (kernel_spec.h: "_packed<i>"), so loading a .om copies and reorders
// nothing: the kernel uses the packed bytes where the mapped file holds them.
//
// The backend packs (hal KernelRegistry::Pack): only it knows its layouts.
// It packs for the machine compiling, so the pass runs only when the target
// is this machine (no --soc_version naming another layout); a .om moved to
// another CPU is repacked at load with a warning.
#include <spdlog/spdlog.h>

#include "partition/dynamic_shape_partitioner.h"
#include "ge/ops/kernel_spec.h"
#include "hal/device.h"
#include "layout_passes.h"

namespace ge {
namespace {

Status Prepack(Graph& g, const PassContext& ctx) {
  const hal::Capabilities& caps = ctx.device->capabilities();
  if (!caps.host_memory) return Status::Ok();  // the packer reads the constants in place
  if (TargetChannelBlock(ctx) != caps.channel_block) {
    spdlog::debug("weight_prepack: the target is not this CPU; kernels pack their weights at load");
    return Status::Ok();
  }
  size_t nodes = 0, bytes = 0;
  for (Node* n : g.nodes()) {
    // Kernels of nodes of unknown shape are created per shape at run time (v2).
    if (IsStructuralNode(*n) || partition::IsUnknownShapeNode(*n)) continue;
    hal::KernelSpec spec = BuildKernelSpec(*n);
    spec.const_inputs.assign(n->num_inputs(), nullptr);
    bool any = false;
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      if (!n->HasInput(i)) continue;
      const Node* src = n->InputSource(i).node;
      if (src->type() != op::kConst) continue;
      if (const Tensor* t = src->GetTensor("value")) {
        spec.const_inputs[i] = t->data();
        any = true;
      }
    }
    if (!any) continue;
    spec.packed_inputs.clear();  // pack from the plain constants, never from an earlier packing
    auto packing = ctx.device->kernels().Pack(spec);
    if (!packing.ok()) {  // an optimisation only: the kernel then packs at load, as without this pass
      spdlog::debug("weight_prepack: {}", packing.status().message());
      continue;
    }
    std::vector<hal::PackedConstant> packed = std::move(packing).value();
    for (hal::PackedConstant& c : packed) {
      const int64_t size = static_cast<int64_t>(c.bytes.size());
      bytes += c.bytes.size();
      n->SetAttr(PackedInputAttr(c.input), Tensor(TensorDesc(DataType::kUInt8, {size}), std::move(c.bytes)));
      n->SetAttr(PackedInputAttr(c.input) + "_format", c.format);
    }
    nodes += !packed.empty();
  }
  if (nodes) spdlog::debug("weight_prepack: {} nodes, {} B of packed weights", nodes, bytes);
  return Status::Ok();
}

}  // namespace

Pass WeightPrepackPass() { return OptionalPass("weight_prepack", "layout", Prepack); }

}  // namespace ge
