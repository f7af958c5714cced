// layout: blocked_layout. Keeps activations between convolutions in the
// layout the device's convolutions are fastest in (Capabilities::
// channel_block: what oneDNN picks, nChw8c on AVX2, nhwc for the brgemm
// kernels of AVX-512), instead of every Conv reordering plain -> its layout
// -> plain around itself.
//
// The pass hard-codes no op list: it asks the backend, node by node in
// topological order, whether the node runs with its blocked inputs blocked
// and its output blocked (a Conv, a pool, an elementwise op, a channel
// Concat say yes), else with only the inputs blocked, else all plain. A
// blocked tensor that some consumer reads plain gets one TransData for all
// such consumers (graph outputs included), so layouts change only at the
// boundaries of blocked regions. A blocked output that no consumer reads
// blocked is turned back to plain when its producer allows it.
//
// Only 4-D f32 (and bf16) tensors whose channel count the block divides (any, for
// channels last) change layout: then the tensor keeps the plain one's size
// and the memory plan is unchanged.
#include <spdlog/spdlog.h>

#include <map>
#include <set>

#include "passes/fusion_util.h"
#include "passes/layout_passes.h"
#include "passes/optimize_util.h"
#include "hal/device.h"
#include "ge/ops/flop_count.h"
#include "ge/ops/kernel_spec.h"
#include "hal/fused_attrs.h"

namespace ge {
namespace {

// A dynamic model's batch may be unknown (-1): the layout does not depend
// on it, so such tensors are blocked too.
bool KnownButBatch(const std::vector<int64_t>& dims) {
  for (size_t k = 1; k < dims.size(); ++k)
    if (dims[k] < 0) return false;
  return !dims.empty() && dims[0] >= -1;
}

// The Winograd share of the conv FLOPs from which a model is laid out in the
// Winograd kernels' layout (ModelChannelBlock).
constexpr double kWinogradLayoutShare = 0.3;

bool Blockable(const TensorDesc& d, int32_t block) {
  return (d.dtype == DataType::kFloat32 || d.dtype == DataType::kBFloat16) && d.dims.size() == 4 && KnownButBatch(d.dims) &&
         (block < 0 || d.dims[1] % block == 0) && (d.format == Format::kND || d.format == Format::kNCHW);
}

// The backend's answer for n with the given inputs (and output 0) blocked.
// The backend answers for concrete shapes: an unknown batch is asked as 2,
// which also tells a broadcast over the batch (a static 1) from a match.
bool Runs(const PassContext& ctx, const Node& n, const std::vector<bool>& in, bool out, int32_t block) {
  hal::KernelSpec spec = BuildKernelSpec(n);
  auto concrete = [](hal::TensorInfo& t) {
    if (!t.present()) return true;
    if (t.dims.size() == 4 && KnownButBatch(t.dims) && t.dims[0] < 0) t.dims[0] = 2;
    for (int64_t d : t.dims)
      if (d < 0) return false;
    return true;
  };
  for (auto& t : spec.inputs)
    if (!concrete(t)) return false;
  for (auto& t : spec.outputs)
    if (!concrete(t)) return false;
  for (size_t i = 0; i < in.size(); ++i)
    if (in[i]) spec.inputs[i].channel_block = block;
  if (out) spec.outputs[0].channel_block = block;
  return fusion::Supported(ctx, spec);
}

struct Decision {
  std::vector<bool> in;  // input i is read blocked
  bool out = false;      // output 0 is written blocked
};

// Of the model's Conv FLOPs, the share that conv_winograd gave Winograd; and
// whether every Conv's output fits `block` (its channels a multiple of it).
struct ConvMix {
  double winograd_share = 0;
  bool all_fit = true;
};

ConvMix MixOf(const Graph& g, int32_t block) {
  ConvMix m;
  double all = 0, winograd = 0;
  for (const Node* n : g.nodes()) {
    if (n->type() != "Conv") continue;
    const double f = static_cast<double>(FlopCount(*n).value_or(0));
    all += f;
    if (hal::ConvAlgorithmFromName(n->GetString(hal::kAttrConvAlgorithm, "")) == hal::ConvAlgorithm::kWinograd)
      winograd += f;
    const TensorDesc& y = n->output_desc(0);
    m.all_fit &= y.dims.size() == 4 && y.dims[1] > 0 && y.dims[1] % block == 0;
  }
  m.winograd_share = all > 0 ? winograd / all : 0;
  return m;
}

// The layout the model's activations are kept in: the target's (--soc_version)
// when given, else the device's. But where the Winograd kernels read another
// layout than the device prefers, each Winograd conv reorders its input in
// and its output out; the model takes their layout instead when they do a
// good part of its conv work and every conv's output fits that layout (so no
// layout change is left between convs). Measured on AVX-512 (Zen 5):
// ResNet-18 (83 % Winograd) 12 % faster in nChw16c, ResNet-50 (37 %) 2-5 %;
// GoogLeNet (41 %, with 24-channel convs) slower, DenseNet-121 (24 %) even.
int32_t ModelChannelBlock(const Graph& g, const PassContext& ctx) {
  const int32_t block = TargetChannelBlock(ctx);
  const hal::Capabilities& caps = ctx.device->capabilities();
  const bool this_cpu = block == caps.channel_block;  // conv_winograd marks nothing for another target
  if (!this_cpu || caps.winograd_channel_block <= 0 || caps.winograd_channel_block == block) return block;
  const ConvMix mix = MixOf(g, caps.winograd_channel_block);
  const bool take = mix.winograd_share >= kWinogradLayoutShare && mix.all_fit;
  if (mix.winograd_share > 0)
    spdlog::debug("blocked_layout: Winograd convs do {:.0f} % of the conv FLOPs{}: {}", 100 * mix.winograd_share,
                  mix.all_fit ? "" : ", some conv outputs do not fit its layout",
                  take ? "the Winograd layout" : "the device's layout");
  return take ? caps.winograd_channel_block : block;
}

Status RunBlockedLayout(Graph& g, const PassContext& ctx) {
  if (!ctx.device) return Status::Ok();
  const int32_t block = ModelChannelBlock(g, ctx);
  if (block == 0) return Status::Ok();
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());

  std::map<const Node*, Decision> how;
  auto blocked = [&](Endpoint e) {
    auto it = how.find(e.node);
    return e.index == 0 && it != how.end() && it->second.out;
  };
  for (Node* n : order) {
    if (opt::IsStructural(*n) || n->num_outputs() != 1) continue;
    Decision d;
    d.in.assign(n->num_inputs(), false);
    bool any_in = false;
    for (size_t i = 0; i < n->num_inputs(); ++i) any_in |= d.in[i] = n->HasInput(i) && blocked(n->InputSource(i));
    if (Blockable(n->output_desc(0), block) && Runs(ctx, *n, d.in, true, block)) {
      d.out = true;
    } else if (!any_in || !Runs(ctx, *n, d.in, false, block)) {
      d.in.assign(n->num_inputs(), false);  // runs as before, all plain
    }
    how[n] = std::move(d);
  }

  // A blocked output nobody reads blocked only costs a TransData: write it
  // plain when the producer can.
  auto read_blocked = [&](const Endpoint& c) {
    auto it = how.find(c.node);
    return it != how.end() && it->second.in[c.index];
  };
  for (auto& [n, d] : how) {
    if (!d.out) continue;
    bool used = false;
    for (const Endpoint& c : n->OutputConsumers(0)) used |= read_blocked(c);
    if (!used && Runs(ctx, *n, d.in, false, block)) d.out = false;
  }

  // Rewrite: formats first, then one TransData per blocked tensor with
  // plain readers.
  opt::PinOutputNames(g);
  const Format blocked_format = ChannelBlockedFormat(block);
  for (Node* n : order) {
    auto it = how.find(n);
    if (it == how.end() || !it->second.out) continue;
    const TensorDesc plain = n->output_desc(0);
    n->output_desc(0).format = blocked_format;
    std::vector<Endpoint> plain_readers;
    for (const Endpoint& c : n->OutputConsumers(0)) {
      if (read_blocked(c)) c.node->input_desc(c.index) = n->output_desc(0);
      else plain_readers.push_back(c);
    }
    if (plain_readers.empty()) continue;
    Node* t = g.AddNode("TransData", g.MakeUniqueName(n->name() + "/to_" + FormatName(plain.format)), 1, 1);
    t->SetAttr("dst_format", std::string(FormatName(plain.format)));
    t->output_desc(0) = plain;
    GE_RETURN_IF_ERROR(g.AddEdge(n, 0, t, 0));
    for (const Endpoint& c : plain_readers) {
      g.RemoveInputEdge(c.node, c.index);
      GE_RETURN_IF_ERROR(g.AddEdge(t, 0, c.node, c.index));
    }
  }
  return Status::Ok();
}

}  // namespace

int32_t TargetChannelBlock(const PassContext& ctx) {
  return ctx.options && ctx.options->channel_block ? *ctx.options->channel_block
                                                   : ctx.device->capabilities().channel_block;
}

Pass BlockedLayoutPass() { return OptionalPass("blocked_layout", "layout", RunBlockedLayout); }

}  // namespace ge
