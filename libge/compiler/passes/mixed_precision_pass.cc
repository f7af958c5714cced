// precision: mixed_precision. ATC's allow_mix_precision on a CPU with native
// bfloat16: the white-list ops (convolutions, matrix products) compute in
// bf16, the gray-list ops (pools, views) follow a bf16 producer, and the
// black list (norms, softmax, reductions, everything not listed) keeps
// float32. --modify_mixlist edits the lists, --keep_dtype pins nodes or
// types to float32.
//
// Nothing is forced on a kernel: a node goes bf16 only when the device says
// its kernel runs with the bf16 types the pass would give it, else it stays
// float32. Constant weights and biases of white ops stay float32 in the
// graph (the kernels convert them once when they pack them). A white op
// whose consumers all read float32 writes float32 itself (oneDNN computes in
// bf16 and converts on the way out), so a Cast appears only where a float32
// tensor enters a bf16 region, or a bf16 one leaves it for a black op.
#include <map>
#include <set>
#include <tuple>

#include "ge_base/bfloat16.h"
#include "passes/fusion_util.h"
#include "passes/layout_passes.h"
#include "hal/device.h"
#include "ge/ops/kernel_spec.h"
#include "ge/ops/op_registry.h"

namespace ge {
namespace {

using Precision = CompileOptions::Precision;

const std::set<std::string>& DefaultWhite() {
  static const std::set<std::string> s = {"Conv", "MatMul", "Gemm", "FusedMatMul", "FusedAttention"};
  return s;
}

// Ops whose bf16 result is their bf16 input moved or picked (no rounding of
// their own) or averaged in f32 inside the kernel.
const std::set<std::string>& DefaultGray() {
  static const std::set<std::string> s = {"MaxPool",   "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
                                          "Flatten",   "Reshape",     "Squeeze",           "Unsqueeze",
                                          "Identity",  "Transpose",   "Concat",            "Relu",
                                          "Slice"};
  return s;
}

enum class List { kWhite, kGray, kBlack };

List Classify(const Node& n, const Precision& p) {
  if (p.keep_nodes.count(n.name()) || p.keep_types.count(n.type())) return List::kBlack;
  const std::string& t = n.type();
  if (p.black_add.count(t)) return List::kBlack;
  if (p.white_add.count(t) || (DefaultWhite().count(t) && !p.white_remove.count(t))) return List::kWhite;
  if (p.gray_add.count(t) || (DefaultGray().count(t) && !p.gray_remove.count(t))) return List::kGray;
  return List::kBlack;
}

bool IsFloat(const TensorDesc& d) { return d.dtype == DataType::kFloat32; }

// White ops read their activations in bf16: input 0, a variable B, and a
// Conv's fused residual; constant weights and biases stay f32.
bool TakesBf16(const Node& n, size_t i, List list) {
  if (!n.HasInput(i) || !IsFloat(*n.SourceDesc(i))) return false;
  if (list != List::kWhite) return true;
  if (i == 0) return true;
  if (n.type() == "Conv") return i == 3;
  if (n.type() == "FusedAttention") return i < 3;  // Q, K, V; the mask stays f32
  return i == 1 && !fusion::ConstInput(n, 1);
}

struct Decision {
  std::vector<bool> in;  // input i is read as bf16
  bool out_bf16 = true;  // float outputs are written as bf16
};

hal::KernelSpec SpecOf(const Node& n, const Decision& d) {
  hal::KernelSpec spec = BuildKernelSpec(n);
  for (size_t i = 0; i < d.in.size() && i < spec.inputs.size(); ++i)
    if (d.in[i]) spec.inputs[i].dtype = DataType::kBFloat16;
  if (d.out_bf16)
    for (auto& o : spec.outputs)
      if (o.dtype == DataType::kFloat32) o.dtype = DataType::kBFloat16;
  return spec;
}

Node* BfConst(Graph& g, const Node& src) {
  const Tensor* t = fusion::ConstOf(&src);
  const size_t n = static_cast<size_t>(t->desc().NumElements());
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = FloatToBFloat16(t->as<float>()[i]);
  return fusion::AddConst(g, src.name() + "_bf16", Tensor::FromVector(DataType::kBFloat16, t->desc().dims, v));
}

Node* AddCast(Graph& g, Endpoint src, DataType to) {
  Node* cast = g.AddNode("Cast", g.MakeUniqueName(src.node->name() + (to == DataType::kBFloat16 ? "_to_bf16" : "_to_f32")), 1, 1);
  cast->SetAttr("to", int64_t{to == DataType::kBFloat16 ? 16 : 1});
  cast->output_desc(0) = src.node->output_desc(src.index);
  cast->output_desc(0).dtype = to;
  return cast;
}

Status RunMixedPrecision(Graph& g, const PassContext& ctx) {
  if (!ctx.options || ctx.options->precision.mode != Precision::kMixBf16) return Status::Ok();
  if (!ctx.device || !ctx.device->capabilities().bf16)
    return Unsupported("--precision_mode allow_mix_precision: this CPU has no native bfloat16 (AVX512-BF16 or AMX)");
  const Precision& p = ctx.options->precision;
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());

  // 1. Which nodes compute in bf16, in topological order (a gray op follows
  //    a producer already decided).
  std::map<Node*, Decision> bf;
  for (Node* n : order) {
    if (IsStructuralNode(*n)) continue;
    const List list = Classify(*n, p);
    if (list == List::kBlack) continue;
    bool any_float_out = false;
    for (size_t o = 0; o < n->num_outputs(); ++o) any_float_out |= IsFloat(n->output_desc(o));
    if (!any_float_out) continue;
    Decision d;
    d.in.assign(n->num_inputs(), false);
    bool from_bf16 = false;
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      d.in[i] = TakesBf16(*n, i, list);
      if (n->HasInput(i) && bf.count(n->InputNode(i))) from_bf16 = true;
    }
    if (list == List::kGray && !from_bf16) continue;
    if (fusion::Supported(ctx, SpecOf(*n, d))) bf[n] = d;
  }

  auto reads_bf16 = [&](const Endpoint& use) {
    auto it = bf.find(use.node);
    return it != bf.end() && it->second.in[use.index];
  };
  auto any_reads_bf16 = [&](const Node* n) {
    for (size_t o = 0; o < n->num_outputs(); ++o)
      for (const Endpoint& use : n->OutputConsumers(o))
        if (reads_bf16(use)) return true;
    return false;
  };
  // 1b. A gray op only moves values: when nothing after it reads bf16, it
  //     stays f32 and the conversion moves up to its producer (a white op
  //     writes f32 for free), instead of a Cast after it. Consumers first.
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (bf.count(*it) && Classify(**it, p) == List::kGray && !any_reads_bf16(*it)) bf.erase(*it);

  // 2. Output types: a bf16 node writes f32 when no consumer reads bf16 and
  //    its kernel can (white ops convert on the way out).
  for (auto& [n, d] : bf) {
    if (any_reads_bf16(n)) continue;
    Decision f32_out = d;
    f32_out.out_bf16 = false;
    if (fusion::Supported(ctx, SpecOf(*n, f32_out))) d.out_bf16 = false;
  }

  // 3. Rewrite: new output types, then a Cast (or a bf16 constant) on every
  //    edge whose two ends disagree, one per producer output and type.
  for (auto& [n, d] : bf) {
    n->SetAttr(kPrecisionAttr, std::string(d.out_bf16 ? "bf16" : "bf16_f32_out"));
    if (d.out_bf16)
      for (size_t o = 0; o < n->num_outputs(); ++o)
        if (IsFloat(n->output_desc(o))) n->output_desc(o).dtype = DataType::kBFloat16;
  }
  std::map<std::tuple<Node*, int, DataType>, Node*> converted;
  for (Node* n : order) {
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      if (!n->HasInput(i)) continue;
      const Endpoint src = n->InputSource(i);
      const DataType have = src.node->output_desc(src.index).dtype;
      auto it = bf.find(n);
      DataType want;
      if (it != bf.end() && it->second.in[i]) {
        want = DataType::kBFloat16;
      } else if (have == DataType::kBFloat16 && bf.count(src.node)) {
        want = DataType::kFloat32;  // leaves the bf16 region
      } else {
        continue;
      }
      if (want == have) continue;
      Node*& conv = converted[{src.node, src.index, want}];
      if (!conv) {
        if (want == DataType::kBFloat16 && fusion::ConstOf(src.node)) {
          conv = BfConst(g, *src.node);
        } else {
          conv = AddCast(g, src, want);
          GE_RETURN_IF_ERROR(g.AddEdge(src.node, src.index, conv, 0));
        }
      }
      g.RemoveInputEdge(n, static_cast<int>(i));
      GE_RETURN_IF_ERROR(g.AddEdge(conv, 0, n, static_cast<int>(i)));
    }
  }
  fusion::RemoveIfUnused(g, [&] {
    std::vector<Node*> consts;
    for (const auto& [key, node] : converted)
      if (fusion::ConstOf(std::get<0>(key))) consts.push_back(std::get<0>(key));
    return consts;
  }());
  return Status::Ok();
}

}  // namespace

std::set<std::string> MixedPrecisionWhiteList(const Precision& p) {
  std::set<std::string> out;
  for (const std::string& t : DefaultWhite())
    if (!p.white_remove.count(t) && !p.black_add.count(t)) out.insert(t);
  for (const std::string& t : p.white_add)
    if (!p.black_add.count(t)) out.insert(t);
  return out;
}

Pass MixedPrecisionPass() { return Pass{"mixed_precision", "precision", RunMixedPrecision}; }

}  // namespace ge
