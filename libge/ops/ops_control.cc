// Control flow (docs/control-flow.md): If, Loop and Scan own subgraphs (the
// ONNX parser lifts the values they capture into explicit inputs after their
// own, attr "_captures"). Their output shapes are only known once a branch
// or a number of iterations has run, so they are computed-shape ops: the v2
// runtime runs them (libge/runtime/v2/control_flow_converters.cc).
// Inference keeps the dtypes and what every path agrees on.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

// Output j of a subgraph as its NetOutput receives it.
const TensorDesc* SubgraphOutput(const Node& n, const char* name, size_t j) {
  auto it = n.subgraphs().find(name);
  if (it == n.subgraphs().end() || !it->second) return nullptr;
  const Node* out = it->second->OutputNode();
  if (!out || j >= out->num_inputs() || !out->HasInput(j)) return nullptr;
  const Endpoint e = out->InputSource(j);
  return &e.node->output_desc(e.index);
}

Status NeedSubgraph(InferContext& ctx, const char* name) {
  auto it = ctx.node().subgraphs().find(name);
  if (it == ctx.node().subgraphs().end() || !it->second || !it->second->OutputNode())
    return ctx.Error(std::string("has no subgraph '") + name + "' with outputs");
  return Status::Ok();
}

// What two descs of one value agree on: equal dims stay, others unknown.
TensorDesc Merge(const TensorDesc& a, const TensorDesc& b) {
  if (a.unknown_rank() || b.unknown_rank() || a.dims.size() != b.dims.size())
    return TensorDesc(a.dtype, {kUnknownRank});
  TensorDesc d = a;
  for (size_t k = 0; k < d.dims.size(); ++k)
    if (a.dims[k] != b.dims[k]) d.dims[k] = kUnknownDim;
  return d;
}

// A stacked scan output: an unknown number of slices of `slice`.
TensorDesc Stacked(const TensorDesc& slice) {
  if (slice.unknown_rank()) return TensorDesc(slice.dtype, {kUnknownRank});
  std::vector<int64_t> dims = {kUnknownDim};
  dims.insert(dims.end(), slice.dims.begin(), slice.dims.end());
  return TensorDesc(slice.dtype, dims);
}

int64_t Captures(const Node& n) { return n.GetInt("_captures", 0); }

Status InferIf(InferContext& ctx) {
  GE_RETURN_IF_ERROR(NeedSubgraph(ctx, "then_branch"));
  GE_RETURN_IF_ERROR(NeedSubgraph(ctx, "else_branch"));
  for (size_t j = 0; j < ctx.node().num_outputs(); ++j) {
    const TensorDesc* t = SubgraphOutput(ctx.node(), "then_branch", j);
    const TensorDesc* e = SubgraphOutput(ctx.node(), "else_branch", j);
    if (!t || !e) return ctx.Error("a branch has no output " + std::to_string(j));
    if (t->dtype != e->dtype && t->dtype != DataType::kUndefined && e->dtype != DataType::kUndefined)
      return ctx.Error("output " + std::to_string(j) + " is " + t->ToString() + " in then_branch and " + e->ToString() +
                       " in else_branch");
    ctx.output(j) = Merge(*t, *e);
  }
  return Status::Ok();
}

// Loop(M, cond, v_initial..., captures...) -> (v_final..., scan_outputs...);
// body(iter, cond, v...) -> (cond, v..., scan slices...).
Status InferLoop(InferContext& ctx) {
  GE_RETURN_IF_ERROR(NeedSubgraph(ctx, "body"));
  const Node& n = ctx.node();
  const int64_t carried = static_cast<int64_t>(n.num_inputs()) - 2 - Captures(n);
  if (carried < 0) return ctx.Error("has fewer than two inputs (M, cond) before its captures");
  for (size_t j = 0; j < n.num_outputs(); ++j) {
    const TensorDesc* body = SubgraphOutput(n, "body", j + 1);
    if (!body) return ctx.Error("the body has no output " + std::to_string(j + 1));
    const int64_t k = static_cast<int64_t>(j);
    if (k < carried)
      ctx.output(j) = ctx.has_input(2 + j) ? Merge(ctx.input(2 + j), *body) : *body;
    else
      ctx.output(j) = Stacked(*body);
  }
  return Status::Ok();
}

// Scan (opset 8): Scan(sequence_lens?, state..., scan_inputs..., captures...)
// with a batch axis 0 everywhere: states [B, ...], scan inputs [B, T, ...];
// the body sees one batch element. Scan outputs are [B, T, slice...] (rows
// past a shorter sequence_lens entry are zero).
Status InferScan8(InferContext& ctx) {
  const Node& n = ctx.node();
  const int64_t scans = n.GetInt("num_scan_inputs", 0);
  const int64_t states = static_cast<int64_t>(n.num_inputs()) - 1 - scans - Captures(n);
  if (scans < 1 || states < 0) return ctx.Error("num_scan_inputs " + std::to_string(scans) + " does not fit its inputs");
  for (int64_t i = 1; i < 1 + states + scans; ++i)
    if (!ctx.has_input(static_cast<size_t>(i))) return ctx.Error("input " + std::to_string(i) + " is missing");
  const TensorDesc& scan0 = ctx.input(1 + states);
  int64_t batch = kUnknownDim, steps = kUnknownDim;
  if (!scan0.unknown_rank()) {
    if (scan0.dims.size() < 2) return ctx.Error("scan input 0 is " + scan0.ToString() + ", not [batch, sequence, ...]");
    batch = scan0.dims[0];
    steps = scan0.dims[1];
  }
  for (size_t j = 0; j < n.num_outputs(); ++j) {
    const TensorDesc* body = SubgraphOutput(n, "body", j);
    if (!body) return ctx.Error("the body has no output " + std::to_string(j));
    if (static_cast<int64_t>(j) < states) {
      ctx.output(j) = ctx.input(1 + j);
      continue;
    }
    if (body->unknown_rank()) {
      ctx.output(j) = TensorDesc(body->dtype, {kUnknownRank});
      continue;
    }
    std::vector<int64_t> dims = {batch, steps};
    dims.insert(dims.end(), body->dims.begin(), body->dims.end());
    ctx.output(j) = TensorDesc(body->dtype, dims);
  }
  return Status::Ok();
}

// Scan (opset 9+): Scan(state..., scan_inputs..., captures...) -> (state..., scan_outputs...).
Status InferScan(InferContext& ctx) {
  GE_RETURN_IF_ERROR(NeedSubgraph(ctx, "body"));
  const Node& n = ctx.node();
  if (n.GetInt("_scan_opset", n.GetInt("_opset", 9)) < 9) return InferScan8(ctx);
  const int64_t scans = n.GetInt("num_scan_inputs", 0);
  const int64_t states = static_cast<int64_t>(n.num_inputs()) - scans - Captures(n);
  if (scans < 1 || states < 0) return ctx.Error("num_scan_inputs " + std::to_string(scans) + " does not fit its inputs");
  for (int64_t i = 0; i < states + scans; ++i)
    if (!ctx.has_input(static_cast<size_t>(i))) return ctx.Error("input " + std::to_string(i) + " is missing");
  const std::vector<int64_t> out_axes = n.GetInts("scan_output_axes");
  for (size_t j = 0; j < n.num_outputs(); ++j) {
    const TensorDesc* body = SubgraphOutput(n, "body", j);
    if (!body) return ctx.Error("the body has no output " + std::to_string(j));
    if (static_cast<int64_t>(j) < states) {
      ctx.output(j) = Merge(ctx.input(j), *body);
      continue;
    }
    // Stacked along scan_output_axes (default 0), in [-(r+1), r+1) for a rank-r slice.
    const size_t k = j - static_cast<size_t>(states);
    TensorDesc stacked = Stacked(*body);
    const int64_t axis = k < out_axes.size() ? out_axes[k] : 0;
    if (axis != 0 && !stacked.unknown_rank()) {
      const int64_t r = static_cast<int64_t>(stacked.dims.size());
      if (axis < -r || axis >= r)
        return ctx.Error("scan_output_axes[" + std::to_string(k) + "] = " + std::to_string(axis) + " is outside rank " +
                         std::to_string(r));
      const int64_t a = axis < 0 ? axis + r : axis;
      stacked.dims.erase(stacked.dims.begin());
      stacked.dims.insert(stacked.dims.begin() + a, kUnknownDim);
    }
    ctx.output(j) = stacked;
  }
  return Status::Ok();
}

}  // namespace

void RegisterControlOps(OpRegistry& r) {
  r.Register(OpBuilder("If").Inputs(1, -1).Outputs(1, -1).Infer(InferIf).ComputedShape());
  // M and cond are both optional (ONNX); the arity is checked by InferLoop.
  r.Register(OpBuilder("Loop").Inputs(0, -1).Outputs(0, -1).Infer(InferLoop).ComputedShape());
  // Opset 8's first input (sequence_lens) is optional; InferScan checks the rest.
  r.Register(OpBuilder("Scan").Inputs(0, -1).Outputs(1, -1).Infer(InferScan).ComputedShape());
}

}  // namespace ge
