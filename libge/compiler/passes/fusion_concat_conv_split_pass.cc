// fusion: concat_conv_split. A convolution is linear in its input channels:
//   Conv(Concat(x_0, ..., x_k-1; axis 1), W, B)
//     = Conv(x_0, W_0, B) + Conv(x_1, W_1) + ... + Conv(x_k-1, W_k-1)
// where W_i is the slice of W's input channels (dim 1) that x_i covers. On
// AVX-512 the convs run channels-last (nhwc), where a channel Concat is one
// small copy per pixel and cannot be made zero-copy; split, the Concat is
// gone: conv_post_ops (later in the stage) fuses each Add of the left-deep
// chain into the next partial conv as a oneDNN sum post-op (a Relu after the
// original conv goes onto the last), and the memory planner lets that conv
// compute over the previous partial's memory (Conv output 0 is inplace over
// input 3). Per-channel ops between the Concat and the convs (MaxPool,
// AveragePool, Relu: SqueezeNet's and GoogLeNet's pools) are pushed through
// it first, op(Concat(x_i)) = Concat(op(x_i)), but only when every reader
// after them splits too: the pass never leaves a Concat behind.
#include <cstring>

#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "ge/ops/kernel_spec.h"
#include "hal/fused_attrs.h"

namespace ge {
namespace {

using namespace fusion;

// Per-channel ops a channel Concat is pushed through.
bool IsPushableThroughConcat(const Node& n) {
  return n.type() == "MaxPool" || n.type() == "AveragePool" || n.type() == "Relu";
}

// What one partial conv of `conv` over a part of `part` channels is, with
// or without conv's bias and a fused residual (conv_post_ops's sum: any
// partial may end up taking its neighbour's result, so each is asked both
// ways).
hal::KernelSpec PartialConvSpec(const Node& conv, const TensorDesc& part, bool with_bias, bool with_sum) {
  hal::KernelSpec spec = BuildKernelSpec(conv);
  spec.inputs[0] = InfoOf(part);
  spec.inputs[1].dims[1] = part.dims[1];
  spec.inputs.resize(with_sum ? 4 : (with_bias ? 3 : 2));
  if (!with_bias && spec.inputs.size() > 2) spec.inputs[2] = hal::TensorInfo{};
  if (with_sum) {
    spec.inputs[3] = spec.outputs[0];
    spec.attrs.Set(hal::kAttrFusedSum, int64_t{1});
  }
  return spec;
}

// `conv` reads the channel Concat of `parts` on input 0: a plain f32 Conv
// of group 1 with constant weights (and bias) whose partial convs the
// backend runs, each also with the sum post-op.
bool CanSplitConvOverParts(const Node& conv, const std::vector<TensorDesc>& parts, const PassContext& ctx) {
  if (conv.num_inputs() > 3 || HasPostOps(conv)) return false;
  if (conv.GetInt("group", 1) != 1 || !IsF32(conv.output_desc(0))) return false;
  const Tensor* w = ConstInput(conv, 1);
  if (!w || w->desc().unknown_rank() || w->desc().rank() != parts[0].rank()) return false;
  const bool has_bias = conv.HasInput(2);
  if (has_bias && !ConstInput(conv, 2)) return false;
  int64_t channels = 0;
  for (const TensorDesc& p : parts) channels += p.dims[1];
  if (w->desc().dims[1] != channels) return false;
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool bias = has_bias && i == 0;
    if (!Supported(ctx, PartialConvSpec(conv, parts[i], bias, false)) ||
        !Supported(ctx, PartialConvSpec(conv, parts[i], bias, true)))
      return false;
  }
  return true;
}

// The descs of `op` applied to each part on its own (its output with the
// part's channels), in *pushed; false unless op is a per-channel op of one
// used output and the backend runs each copy.
bool CanPushThroughConcat(const Node& op, const std::vector<TensorDesc>& parts, const PassContext& ctx,
                          std::vector<TensorDesc>* pushed) {
  if (!IsPushableThroughConcat(op) || !IsF32(op.output_desc(0))) return false;
  for (size_t j = 1; j < op.num_outputs(); ++j)  // MaxPool's Indices
    if (!op.OutputConsumers(j).empty()) return false;
  const TensorDesc& y = op.output_desc(0);
  if (y.unknown_rank() || y.rank() != parts[0].rank()) return false;
  for (const TensorDesc& p : parts) {
    TensorDesc d = y;
    d.dims[1] = p.dims[1];
    hal::KernelSpec spec = BuildKernelSpec(op);
    spec.inputs[0] = InfoOf(p);
    spec.outputs.resize(1);
    spec.outputs[0] = InfoOf(d);
    if (!Supported(ctx, spec)) return false;
    pushed->push_back(std::move(d));
  }
  return true;
}

// Whether every reader of output 0 of `n`, the channel Concat of tensors
// described by `parts`, splits: Convs directly, per-channel ops when their
// own readers split. Adds the partial convs it would make to *convs and
// fails once they are more than the cost guard allows.
bool CanSplitConcatReaders(const Node& n, const std::vector<TensorDesc>& parts, const PassContext& ctx, size_t* convs) {
  const std::vector<Endpoint>& readers = n.OutputConsumers(0);
  if (readers.empty()) return false;
  for (const Endpoint& r : readers) {
    // Input 0 only (a second use, e.g. as weights, keeps the tensor), and no
    // NetOutput: neither is a Conv nor pushable.
    if (r.index != 0 || !NoControl(*r.node)) return false;
    if (r.node->type() == "Conv") {
      *convs += parts.size();
      if (*convs > kConcatConvSplitMaxConvs || !CanSplitConvOverParts(*r.node, parts, ctx)) return false;
      continue;
    }
    std::vector<TensorDesc> pushed;
    if (!CanPushThroughConcat(*r.node, parts, ctx, &pushed)) return false;
    if (!CanSplitConcatReaders(*r.node, pushed, ctx, convs)) return false;
  }
  return true;
}

// A new node of `type` named `name` (made unique) with the attributes of
// `attrs_from` (if any), reading `inputs` (absent ones left out), with
// output 0 described by `y`.
Result<Node*> AddSplitNode(Graph& g, const std::string& type, const std::string& name, const Node* attrs_from,
                           const std::vector<Endpoint>& inputs, const TensorDesc& y) {
  Node* n = g.AddNode(type, g.MakeUniqueName(name), inputs.size(), 1);
  if (attrs_from)
    for (const auto& [k, v] : attrs_from->attrs()) n->SetAttr(k, v);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].valid()) GE_RETURN_IF_ERROR(g.AddEdge(inputs[i].node, inputs[i].index, n, static_cast<int>(i)));
  n->output_desc(0) = y;
  return n;
}

// Input channels [begin, begin + count) of a weight tensor [M, C, k...],
// byte for byte in its own dtype.
Tensor SliceInputChannels(const Tensor& w, int64_t begin, int64_t count) {
  std::vector<int64_t> dims = w.desc().dims;
  const int64_t m = dims[0], c = dims[1];
  int64_t inner = 1;
  for (size_t i = 2; i < dims.size(); ++i) inner *= dims[i];
  const size_t es = DataTypeSize(w.desc().dtype);
  const size_t row = static_cast<size_t>(count * inner) * es;
  std::vector<uint8_t> bytes(static_cast<size_t>(m) * row);
  for (int64_t o = 0; o < m; ++o)
    std::memcpy(bytes.data() + static_cast<size_t>(o) * row,
                w.data() + static_cast<size_t>((o * c + begin) * inner) * es, row);
  dims[1] = count;
  return Tensor(TensorDesc(w.desc().dtype, std::move(dims), w.desc().format), std::move(bytes));
}

// conv (reading the Concat of `parts`) becomes <conv>_split<i> over each
// part with its weight slice, the bias on the first, summed left-deep by
// <conv>_split_add<i> (the form conv_post_ops fuses).
Status SplitConvOverParts(Graph& g, Node* conv, const std::vector<Endpoint>& parts) {
  const Tensor w = *ConstInput(*conv, 1);
  const Endpoint bias = conv->InputSource(2);
  const TensorDesc y = conv->output_desc(0);
  Endpoint sum;
  int64_t begin = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string name = conv->name() + "_split" + std::to_string(i);
    const int64_t c = parts[i].node->output_desc(parts[i].index).dims[1];
    Node* wi = AddConst(g, name + "_w", SliceInputChannels(w, begin, c));
    begin += c;
    std::vector<Endpoint> in = {parts[i], Endpoint{wi, 0}};
    if (i == 0 && bias.valid()) in.push_back(bias);
    GE_ASSIGN_OR_RETURN(Node * partial, AddSplitNode(g, "Conv", name, conv, in, y));
    if (i == 0) {
      sum = Endpoint{partial, 0};
      continue;
    }
    GE_ASSIGN_OR_RETURN(Node * add, AddSplitNode(g, "Add", conv->name() + "_split_add" + std::to_string(i), nullptr,
                                                 {sum, Endpoint{partial, 0}}, y));
    sum = Endpoint{add, 0};
  }
  GE_RETURN_IF_ERROR(Redirect(g, conv, sum.node));
  RemoveIfUnused(g, {conv});
  return Status::Ok();
}

Status SplitConcatReaders(Graph& g, Node* n, const std::vector<Endpoint>& parts);

// op (per-channel, reading the Concat of `parts`) becomes <op>_split<i> over
// each part; its readers then read the Concat of those.
Status PushThroughConcat(Graph& g, Node* op, const std::vector<Endpoint>& parts) {
  std::vector<Endpoint> pushed;
  for (size_t i = 0; i < parts.size(); ++i) {
    TensorDesc y = op->output_desc(0);
    y.dims[1] = parts[i].node->output_desc(parts[i].index).dims[1];
    GE_ASSIGN_OR_RETURN(Node * copy,
                        AddSplitNode(g, op->type(), op->name() + "_split" + std::to_string(i), op, {parts[i]}, y));
    pushed.push_back(Endpoint{copy, 0});
  }
  GE_RETURN_IF_ERROR(SplitConcatReaders(g, op, pushed));
  RemoveIfUnused(g, {op});
  return Status::Ok();
}

// Rewrites every reader of output 0 of `n` (the channel Concat of `parts`,
// checked by CanSplitConcatReaders) to read the parts instead.
Status SplitConcatReaders(Graph& g, Node* n, const std::vector<Endpoint>& parts) {
  std::vector<Node*> readers;
  for (const Endpoint& r : n->OutputConsumers(0)) readers.push_back(r.node);
  for (Node* r : readers) {
    if (r->type() == "Conv")
      GE_RETURN_IF_ERROR(SplitConvOverParts(g, r, parts));
    else
      GE_RETURN_IF_ERROR(PushThroughConcat(g, r, parts));
  }
  return Status::Ok();
}

Result<bool> TrySplitConcatIntoConvs(Graph& g, Node* cat, const PassContext& ctx) {
  if (cat->type() != "Concat" || !NoControl(*cat) || cat->num_inputs() == 0) return false;
  const TensorDesc& y = cat->output_desc(0);
  if (!IsF32(y) || y.unknown_rank() || y.rank() < 3 || y.rank() > 5) return false;
  const int64_t axis = cat->GetInt("axis", 0);
  if (axis != 1 && axis != 1 - y.rank()) return false;
  if (cat->num_inputs() > kConcatConvSplitMaxConvs) return false;  // one partial conv per input at least
  std::vector<Endpoint> parts;
  std::vector<TensorDesc> descs;
  for (size_t i = 0; i < cat->num_inputs(); ++i) {
    if (!cat->HasInput(i)) return false;
    parts.push_back(cat->InputSource(i));
    const TensorDesc& d = parts.back().node->output_desc(parts.back().index);
    if (d.dtype != y.dtype || d.unknown_rank() || d.rank() != y.rank() || d.dims[1] <= 0) return false;
    descs.push_back(d);
  }
  size_t convs = 0;
  if (!CanSplitConcatReaders(*cat, descs, ctx, &convs)) return false;
  GE_RETURN_IF_ERROR(SplitConcatReaders(g, cat, parts));
  RemoveIfUnused(g, {cat});
  return true;
}

}  // namespace

Pass ConcatConvSplitPass() {
  return FusionPass("concat_conv_split", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TrySplitConcatIntoConvs(gr, n, ctx); });
  });
}

}  // namespace ge
