// optimize: algebraic simplification. Removes nodes that compute nothing
// (Identity; Dropout without its mask; Reshape/Flatten/Squeeze/Unsqueeze to
// the input's own shape; Transpose with the identity perm; Cast to the input's dtype; Pad by all
// zeros; Slice over the full range), collapses Reshape chains into one
// Reshape, cancels inverse Transpose pairs and turns a Transpose that only
// moves axes of size 1 into a Reshape. Runs to a fixed point since
// one rewrite exposes the next (a collapsed chain may become a no-op).
// Nodes with control edges or side effects are left alone.
#include <spdlog/spdlog.h>

#include "passes/optimize_passes.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

bool IsReshapeLike(const std::string& t) {
  return t == "Reshape" || t == "Flatten" || t == "Squeeze" || t == "Unsqueeze";
}

const TensorDesc& InDesc(const Node& n, size_t i) {
  Endpoint src = n.InputSource(i);
  return src.node->output_desc(src.index);
}

std::vector<int64_t> TransposePerm(const Node& n) {
  if (n.HasAttr("perm")) return n.GetInts("perm");
  // ONNX's default reverses the dims.
  std::vector<int64_t> perm;
  const TensorDesc& in = InDesc(n, 0);
  for (int64_t i = in.rank() - 1; i >= 0; --i) perm.push_back(i);
  return perm;
}

// Output 0 equals input 0, element for element.
bool IsNoOp(const Node& n) {
  if (!n.HasInput(0) || n.num_outputs() != 1) return false;
  const TensorDesc& in = InDesc(n, 0);
  const TensorDesc& out = n.output_desc(0);
  if (in.unknown_rank() || in.dtype != out.dtype || in.dims != out.dims) return false;
  const std::string& t = n.type();
  if (t == "Identity") return true;
  if (t == "Cast" || t == "CastLike") return true;  // same dtype: nothing to convert
  if (t == "Dropout") return true;  // inference (training mode is refused), mask unused
  // Static and equal: dims with -1 could still differ at run time.
  if (!in.is_static()) return false;
  if (IsReshapeLike(t)) return true;
  if (t == "Transpose") {
    std::vector<int64_t> perm = TransposePerm(n);
    for (size_t i = 0; i < perm.size(); ++i)
      if (perm[i] != static_cast<int64_t>(i)) return false;
    return true;
  }
  if (t == "Pad") {
    bool absent = false;
    auto pads = opt::ConstIntsOrAttr(n, 1, "pads", &absent);
    if (!pads || absent) return false;
    for (int64_t p : *pads)
      if (p != 0) return false;
    return true;
  }
  if (t == "Slice") {
    // With positive unit steps an unchanged length means the whole axis.
    bool absent = false;
    auto steps = opt::ConstIntsOrAttr(n, 4, "steps", &absent);
    if (!steps) return false;
    for (int64_t s : *steps)
      if (s != 1) return false;
    return true;
  }
  return false;
}

bool Untouchable(const Node& n) {
  return opt::HasSideEffects(n) || !n.control_inputs().empty() || !n.control_outputs().empty();
}

// Removes `n`, its consumers reading `to` instead; false when that is not
// allowed (CanRedirect).
Result<bool> Bypass(Graph& g, opt::Remover& remover, Node* n, Endpoint to) {
  if (!opt::CanRedirect({n, 0}, to)) return false;
  GE_RETURN_IF_ERROR(opt::Redirect(g, {n, 0}, to));
  remover.Remove(n);
  return true;
}

// A Transpose that moves only axes of size 1 keeps every value where it is
// (the other axes stay in order), so it is a Reshape: a view, no kernel.
// Batch-1 transformers have one per attention block (torch's
// MultiheadAttention turns [1, S, E] into [S, 1, E]). Not for a graph
// output, which would become a view of its producer.
bool MovesOnlySizeOneAxes(const Node& n) {
  if (n.type() != "Transpose" || !n.HasInput(0) || n.num_outputs() != 1 || opt::FeedsOutput(n)) return false;
  const TensorDesc& in = InDesc(n, 0);
  if (!in.is_static() || !n.output_desc(0).is_static()) return false;
  const std::vector<int64_t> perm = TransposePerm(n);
  if (perm.size() != in.dims.size()) return false;
  int64_t last = -1;
  for (int64_t p : perm) {
    if (p < 0 || p >= in.rank()) return false;
    if (in.dims[p] == 1) continue;
    if (p < last) return false;
    last = p;
  }
  return true;
}

Result<bool> TransposeToReshape(Graph& g, opt::Remover& remover, Node* n) {
  if (!MovesOnlySizeOneAxes(*n)) return false;
  const TensorDesc& out = n->output_desc(0);
  const Endpoint x = n->InputSource(0);
  Node* r = g.AddNode("Reshape", g.MakeUniqueName(n->name() + "_reshape"), 2, 1);
  Node* shape = opt::AddConst(
      g, n->name() + "_shape", Tensor::FromVector(DataType::kInt64, {static_cast<int64_t>(out.dims.size())}, out.dims));
  GE_RETURN_IF_ERROR(g.AddEdge(x.node, x.index, r, 0));
  GE_RETURN_IF_ERROR(g.AddEdge(shape, 0, r, 1));
  r->SetAttr("allowzero", int64_t{0});
  r->output_desc(0) = out;
  GE_RETURN_IF_ERROR(opt::Redirect(g, {n, 0}, {r, 0}));
  remover.Remove(n);
  return true;
}

// Reshape(reshape-like(x)) -> Reshape(x, final shape).
Result<bool> CollapseReshapeChain(Graph& g, opt::Remover& remover, Node* n) {
  if (n->type() != "Reshape" || !n->HasInput(0) || !n->HasInput(1)) return false;
  Node* inner = n->InputNode(0);
  if (!IsReshapeLike(inner->type()) || Untouchable(*inner) || !inner->HasInput(0)) return false;
  const TensorDesc& out = n->output_desc(0);
  // The new shape operand is the output's dims; a 0 in it would mean "copy".
  if (!out.is_static()) return false;
  for (int64_t d : out.dims)
    if (d == 0) return false;
  Endpoint x = inner->InputSource(0);
  Node* old_shape = n->InputNode(1);
  g.RemoveInputEdge(n, 0);
  g.RemoveInputEdge(n, 1);
  GE_RETURN_IF_ERROR(g.AddEdge(x.node, x.index, n, 0));
  Node* shape = opt::AddConst(
      g, n->name() + "_shape",
      Tensor::FromVector(DataType::kInt64, {static_cast<int64_t>(out.dims.size())}, out.dims));
  GE_RETURN_IF_ERROR(g.AddEdge(shape, 0, n, 1));
  n->SetAttr("allowzero", int64_t{0});
  remover.Orphaned(inner);
  remover.Orphaned(old_shape);
  return true;
}

// Transpose(Transpose(x, p1), p2) with p1[p2[i]] == i: x itself.
Result<bool> CancelTransposePair(Graph& g, opt::Remover& remover, Node* n) {
  if (n->type() != "Transpose" || !n->HasInput(0)) return false;
  Node* inner = n->InputNode(0);
  if (inner->type() != "Transpose" || Untouchable(*inner) || !inner->HasInput(0)) return false;
  if (InDesc(*inner, 0).unknown_rank()) return false;
  const std::vector<int64_t> p1 = TransposePerm(*inner), p2 = TransposePerm(*n);
  if (p1.size() != p2.size()) return false;
  for (size_t i = 0; i < p2.size(); ++i) {
    if (p2[i] < 0 || p2[i] >= static_cast<int64_t>(p1.size())) return false;
    if (p1[static_cast<size_t>(p2[i])] != static_cast<int64_t>(i)) return false;
  }
  GE_ASSIGN_OR_RETURN(bool done, Bypass(g, remover, n, inner->InputSource(0)));
  if (done) remover.Orphaned(inner);
  return done;
}

Status Simplify(Graph& g, const PassContext&) {
  opt::Remover remover(g);
  int rewrites = 0;
  // Each rewrite removes a node or shortens a chain, so this terminates; the
  // cap only bounds pathological graphs.
  for (int round = 0; round < 16; ++round) {
    GE_ASSIGN_OR_RETURN(auto order, g.TopologicalOrder());
    bool changed = false;
    for (Node* n : order) {
      if (opt::IsStructural(*n) || Untouchable(*n)) continue;
      bool done = false;
      if (IsNoOp(*n)) {
        GE_ASSIGN_OR_RETURN(done, Bypass(g, remover, n, n->InputSource(0)));
      } else if (n->type() == "Transpose") {
        GE_ASSIGN_OR_RETURN(done, CancelTransposePair(g, remover, n));
        if (!done) {
          GE_ASSIGN_OR_RETURN(done, TransposeToReshape(g, remover, n));
        }
      } else if (n->type() == "Reshape") {
        GE_ASSIGN_OR_RETURN(done, CollapseReshapeChain(g, remover, n));
      }
      if (done) {
        ++rewrites;
        changed = true;
      }
    }
    // Sweep inside the round: a collapsed chain's inner node must be gone
    // before its own producer is looked at again.
    remover.Sweep();
    if (!changed) break;
  }
  spdlog::debug("algebraic_simplify: {} rewrites", rewrites);
  return Status::Ok();
}

}  // namespace

Pass AlgebraicSimplifyPass() { return OptionalPass("algebraic_simplify", "optimize", Simplify); }

}  // namespace ge
