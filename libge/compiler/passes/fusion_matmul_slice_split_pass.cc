// fusion: matmul_slice_split. A matrix product with constant weights whose
// result is read only by Slices of its last axis becomes one product per
// Slice, over that Slice's columns of the weights and bias:
//   Slice(x W + b, columns o..o+L) = x W[:, o:o+L] + b[o:o+L]
// That is a packed QKV projection: torch's MultiheadAttention computes Q, K
// and V as one x W[E, 3E] + b and slices the columns. Each Slice was a
// strided copy of its third (ViT-B/16: 36 of them, 1.3 ms of 99; the BERT
// encoder of ../shared/models: 12, 5 % of its time), and three products of
// N = E cost about what the one of N = 3E did. An elementwise activation the
// product carries commutes with the column slice and goes with each part.
// Not when the Slices would compute more columns than the product had
// (overlapping windows), nor for a product read by anything else.
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

using namespace fusion;

// The column window [begin, end) of the last axis (of `n` values) that
// Slice `s` takes, every other axis whole; nullopt for anything else.
std::optional<std::pair<int64_t, int64_t>> LastAxisWindow(const Node& s, int64_t rank, int64_t n) {
  if (s.type() != "Slice" || !NoControl(s) || s.InputSource(0).index != 0) return std::nullopt;
  bool absent = false;
  auto starts = opt::ConstIntsOrAttr(s, 1, "starts", &absent);
  if (!starts || absent || starts->size() != 1) return std::nullopt;
  auto ends = opt::ConstIntsOrAttr(s, 2, "ends", &absent);
  if (!ends || absent || ends->size() != 1) return std::nullopt;
  auto axes = opt::ConstIntsOrAttr(s, 3, "axes", &absent);
  if (!axes || (absent ? rank != 1 : axes->size() != 1)) return std::nullopt;
  const int64_t axis = absent ? 0 : ((*axes)[0] < 0 ? (*axes)[0] + rank : (*axes)[0]);
  if (axis != rank - 1) return std::nullopt;
  auto steps = opt::ConstIntsOrAttr(s, 4, "steps", &absent);
  if (!steps || (!absent && (steps->size() != 1 || (*steps)[0] != 1))) return std::nullopt;
  // ONNX: negative positions count from the end, then clamp to [0, n].
  auto clamp = [n](int64_t v) { return std::min(n, std::max<int64_t>(0, v < 0 ? v + n : v)); };
  const int64_t b = clamp((*starts)[0]), e = clamp((*ends)[0]);
  if (e <= b) return std::nullopt;
  const TensorDesc& y = s.output_desc(0);
  if (!y.is_static() || y.rank() != rank || y.dims.back() != e - b) return std::nullopt;
  return std::make_pair(b, e);
}

// Columns [b, e) of a row-major f32 matrix of `rows` x `cols`.
Tensor Columns(const Tensor& w, int64_t rows, int64_t cols, int64_t b, int64_t e) {
  const auto* src = reinterpret_cast<const float*>(w.data());
  std::vector<float> out;
  out.reserve(static_cast<size_t>(rows * (e - b)));
  for (int64_t r = 0; r < rows; ++r) out.insert(out.end(), src + r * cols + b, src + r * cols + e);
  return Tensor::FromVector(DataType::kFloat32, {rows, e - b}, out);
}

Tensor Range(const Tensor& v, int64_t b, int64_t e) {
  const auto* src = reinterpret_cast<const float*>(v.data());
  return Tensor::FromVector(DataType::kFloat32, {e - b}, std::vector<float>(src + b, src + e));
}

Result<bool> TrySplitMatMulBySlices(Graph& g, Node* mm, const PassContext& ctx) {
  const bool fused = mm->type() == "FusedMatMul";
  if ((mm->type() != "MatMul" && !fused) || mm->num_inputs() != (fused ? 3u : 2u) || !NoControl(*mm) ||
      mm->num_outputs() != 1)
    return false;
  const TensorDesc& y = mm->output_desc(0);
  if (!IsF32(y) || !y.is_static() || y.rank() < 2) return false;
  const Tensor* w = ConstInput(*mm, 1);
  if (!w || !IsF32(w->desc()) || w->desc().rank() != 2) return false;
  const Tensor* bias = fused ? ConstInput(*mm, 2) : nullptr;
  if (fused && (!bias || !IsF32(bias->desc()))) return false;
  const int64_t k = w->desc().dims[0], n = w->desc().dims[1];
  if (y.dims.back() != n || (bias && bias->desc().NumElements() != n)) return false;

  const std::vector<Endpoint> readers = mm->OutputConsumers(0);
  if (readers.empty()) return false;
  std::vector<std::pair<int64_t, int64_t>> windows;
  int64_t columns = 0;
  for (const Endpoint& r : readers) {
    if (r.index != 0) return false;  // read as starts/ends/...: not a slice of it
    auto win = LastAxisWindow(*r.node, y.rank(), n);
    if (!win) return false;
    windows.push_back(*win);
    columns += win->second - win->first;
  }
  if (columns > n) return false;

  // One product per Slice, each asked of the backend before anything changes.
  const Endpoint x = mm->InputSource(0);
  std::vector<Node*> parts, consts;
  for (size_t i = 0; i < readers.size(); ++i) {
    const auto [b, e] = windows[i];
    const std::string base = mm->name() + "_cols" + std::to_string(b);
    Node* part = g.AddNode(mm->type(), g.MakeUniqueName(base), mm->num_inputs(), 1);
    for (const auto& [key, value] : mm->attrs()) part->SetAttr(key, value);
    Node* wc = AddConst(g, base + "_w", Columns(*w, k, n, b, e));
    consts.push_back(wc);
    GE_RETURN_IF_ERROR(g.AddEdge(x.node, x.index, part, 0));
    GE_RETURN_IF_ERROR(g.AddEdge(wc, 0, part, 1));
    if (bias) {
      Node* bc = AddConst(g, base + "_b", Range(*bias, b, e));
      consts.push_back(bc);
      GE_RETURN_IF_ERROR(g.AddEdge(bc, 0, part, 2));
    }
    part->output_desc(0) = readers[i].node->output_desc(0);
    parts.push_back(part);
    if (!Supported(ctx, *part)) {
      parts.insert(parts.end(), consts.begin(), consts.end());
      RemoveIfUnused(g, parts);
      return false;
    }
  }
  std::vector<Node*> removed = {mm};
  for (size_t i = 0; i < readers.size(); ++i) {
    Node* slice = readers[i].node;
    GE_RETURN_IF_ERROR(Redirect(g, slice, parts[i]));
    removed.push_back(slice);
    for (size_t j = 1; j < slice->num_inputs(); ++j)
      if (slice->HasInput(j)) removed.push_back(slice->InputNode(j));
  }
  removed.push_back(mm->InputNode(1));
  if (bias) removed.push_back(mm->InputNode(2));
  RemoveIfUnused(g, removed);
  return true;
}

}  // namespace

Pass MatMulSliceSplitPass() {
  return FusionPass("matmul_slice_split", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TrySplitMatMulBySlices(gr, n, ctx); });
  });
}

}  // namespace ge
