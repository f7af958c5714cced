// Control flow (docs/control-flow.md): If, Loop and Scan own subgraphs (the
// ONNX parser lifts the values they capture into explicit inputs after their
// own, attr "_captures"). Their output shapes are only known once a branch
// or a number of iterations has run, so they are computed-shape ops: the v2
// runtime runs them (libge/runtime/v2/control_flow_converters.cc).
// Inference keeps the dtypes and what every path agrees on.
#include <optional>

#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

// Output j of a subgraph as its NetOutput receives it.
const TensorDesc* SubgraphOutput(const Node& n, const char* name, size_t j) {
  auto it = n.subgraphs().find(name);
  if (it == n.subgraphs().end() || !it->second) return nullptr;
  const Node* out = it->second->OutputNode();
  return out ? out->SourceDesc(j) : nullptr;
}

Status NeedSubgraph(InferContext& ctx, const char* name) {
  auto it = ctx.node().subgraphs().find(name);
  if (it == ctx.node().subgraphs().end() || !it->second || !it->second->OutputNode())
    return ctx.Error(std::string("has no subgraph '") + name + "' with outputs");
  return Status::Ok();
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
    ctx.output(j) = CommonDesc(*t, *e);
  }
  return Status::Ok();
}

// The producer of input i of n, through Identity nodes.
Endpoint Source(const Node& n, size_t i) {
  Endpoint e = n.HasInput(i) ? n.InputSource(i) : Endpoint{};
  while (e.valid() && e.node->type() == "Identity" && e.node->HasInput(0)) e = e.node->InputSource(0);
  return e;
}

std::optional<double> ScalarValue(const Tensor* t) {
  if (!t || t->desc().NumElements() != 1) return std::nullopt;
  return t->ToDouble()[0];
}

// The number of iterations a Loop runs when constants decide it: a constant
// M with a condition the body passes through, or a counter the body steps by
// a constant and compares with a constant limit (what tf.while_loop and
// dynamic_rnn freeze: i + 1 < n). Its scan outputs then have a static
// length, and the Loop can join a static plan.
std::optional<int64_t> StaticTripCount(InferContext& ctx, int64_t carried) {
  const Node& n = ctx.node();
  auto it = n.subgraphs().find("body");
  if (it == n.subgraphs().end() || !it->second || !it->second->OutputNode()) return std::nullopt;
  const Graph& body = *it->second;
  const Node* out = body.OutputNode();
  std::optional<double> m;
  if (ctx.has_input(0) && !(m = ScalarValue(ctx.input_value(0)))) return std::nullopt;
  bool go = true;
  if (ctx.has_input(1)) {
    const auto c = ScalarValue(ctx.input_value(1));
    if (!c) return std::nullopt;
    go = *c != 0;
  }
  if (!go || (m && *m <= 0)) return 0;
  auto data_index = [](const Endpoint& e) { return e.valid() && e.node->type() == op::kData ? e.node->GetInt("index", -1) : -1; };
  auto constant = [](const Endpoint& e) {
    return e.valid() && e.node->type() == op::kConst ? ScalarValue(e.node->GetTensor("value")) : std::nullopt;
  };
  const Endpoint cond = Source(*out, 0);
  if (data_index(cond) == 1 || constant(cond).value_or(0) != 0) return m ? std::optional<int64_t>(static_cast<int64_t>(*m)) : std::nullopt;
  const std::string& cmp = cond.valid() ? cond.node->type() : std::string();
  if (cmp != "Less" && cmp != "LessOrEqual" && cmp != "Greater" && cmp != "GreaterOrEqual") return std::nullopt;
  // One side is the counter's next value (Add of a carried value and a
  // constant step, which the body also gives back as that value); the
  // other a constant limit, in the body or captured from outside.
  double init = 0, step = 0, limit = 0;
  int counter_side = -1;
  for (int side = 0; side < 2 && counter_side < 0; ++side) {
    const Endpoint add = Source(*cond.node, static_cast<size_t>(side));
    if (!add.valid() || add.node->type() != "Add") continue;
    for (int a = 0; a < 2; ++a) {
      const int64_t k = data_index(Source(*add.node, static_cast<size_t>(a))) - 2;
      const auto s = constant(Source(*add.node, static_cast<size_t>(1 - a)));
      if (k < 0 || k >= carried || !s || static_cast<size_t>(1 + k) >= out->num_inputs()) continue;
      const Endpoint next = Source(*out, static_cast<size_t>(1 + k));
      const auto i0 = ScalarValue(ctx.input_value(static_cast<size_t>(2 + k)));
      if (next.node != add.node || !i0) continue;
      init = *i0;
      step = *s;
      counter_side = side;
      break;
    }
  }
  if (counter_side < 0) return std::nullopt;
  const Endpoint other = Source(*cond.node, static_cast<size_t>(1 - counter_side));
  if (auto c = constant(other)) {
    limit = *c;
  } else {
    const int64_t j = data_index(other);
    const auto v = j >= 2 + carried ? ScalarValue(ctx.input_value(static_cast<size_t>(j))) : std::nullopt;
    if (!v) return std::nullopt;
    limit = *v;
  }
  auto holds = [&](double next) {
    const double a = counter_side == 0 ? next : limit, b = counter_side == 0 ? limit : next;
    return cmp == "Less" ? a < b : cmp == "LessOrEqual" ? a <= b : cmp == "Greater" ? a > b : a >= b;
  };
  constexpr int64_t kMaxTrips = int64_t{1} << 24;  // past this, not worth a static length
  int64_t trips = 0;
  for (double i = init; trips < kMaxTrips;) {
    if (m && static_cast<double>(trips) >= *m) break;
    i += step;
    ++trips;
    if (!holds(i)) break;
  }
  if (trips >= kMaxTrips) return std::nullopt;
  return trips;
}

// Loop(M, cond, v_initial..., captures...) -> (v_final..., scan_outputs...);
// body(iter, cond, v...) -> (cond, v..., scan slices...).
Status InferLoop(InferContext& ctx) {
  GE_RETURN_IF_ERROR(NeedSubgraph(ctx, "body"));
  const Node& n = ctx.node();
  const int64_t carried = static_cast<int64_t>(n.num_inputs()) - 2 - Captures(n);
  if (carried < 0) return ctx.Error("has fewer than two inputs (M, cond) before its captures");
  const std::optional<int64_t> trips =
      static_cast<int64_t>(n.num_outputs()) > carried ? StaticTripCount(ctx, carried) : std::nullopt;
  for (size_t j = 0; j < n.num_outputs(); ++j) {
    const TensorDesc* body = SubgraphOutput(n, "body", j + 1);
    if (!body) return ctx.Error("the body has no output " + std::to_string(j + 1));
    const int64_t k = static_cast<int64_t>(j);
    if (k < carried) {
      ctx.output(j) = ctx.has_input(2 + j) ? CommonDesc(ctx.input(2 + j), *body) : *body;
    } else {
      ctx.output(j) = Stacked(*body);
      if (trips && !ctx.output(j).unknown_rank()) ctx.output(j).dims[0] = *trips;
    }
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
      ctx.output(j) = CommonDesc(ctx.input(j), *body);
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
