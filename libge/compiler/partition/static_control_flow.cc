// Which control-flow nodes join a static plan (docs/control-flow.md): an If
// or Loop whose subgraphs have static shapes everywhere, whose kernels the
// device supports at those shapes, and whose boundary keeps its shapes (a
// branch gives exactly the If's outputs; a body gives back exactly the
// shapes it was given). Anything else stays for the v2 runtime.
#include "partition/static_control_flow.h"

#include "ge/model.h"
#include "ge/ops/kernel_spec.h"
#include "ge/ops/memory_alias.h"
#include "hal/device.h"
#include "partition/dynamic_shape_partitioner.h"

namespace ge::partition {
namespace {

bool Same(const TensorDesc& a, const TensorDesc& b) { return a.is_static() && b.is_static() && a.dtype == b.dtype && a.dims == b.dims; }
bool ScalarOf(const TensorDesc& d, DataType t) { return d.is_static() && d.dtype == t && d.NumElements() == 1; }

// The subgraph's Data descs (by index) and its NetOutput's input descs.
bool Interface(const Graph& g, std::vector<const TensorDesc*>& in, std::vector<const TensorDesc*>& out) {
  for (Node* d : g.InputNodes()) in.push_back(&d->output_desc(0));
  const Node* o = g.OutputNode();
  if (!o) return false;
  for (size_t j = 0; j < o->num_inputs(); ++j) {
    const TensorDesc* d = o->SourceDesc(j);
    if (!d) return false;
    out.push_back(d);
  }
  return true;
}

bool StaticSubgraph(const Graph& g, hal::Device& device) {
  for (const Node* n : g.nodes()) {
    if (IsLinkedControlFlow(*n)) {
      if (!SinksControlFlow(*n, device)) return false;
      continue;
    }
    if (!n->subgraphs().empty() || IsUnknownShapeNode(*n)) return false;
    if (IsStructuralNode(*n) || !RunsKernel(*n)) continue;
    if (!device.kernels().Supports(BuildKernelSpec(*n)).ok()) return false;
  }
  return true;
}

bool SinksIf(const Node& n, hal::Device& device) {
  const TensorDesc* cond = n.SourceDesc(0);
  if (!cond || !cond->is_static() || cond->NumElements() < 1) return false;
  for (const std::string& name : LinkedSubgraphs(n)) {
    auto it = n.subgraphs().find(name);
    if (it == n.subgraphs().end() || !it->second) return false;
    std::vector<const TensorDesc*> in, out;
    if (!Interface(*it->second, in, out) || in.size() != n.num_inputs() - 1 || out.size() != n.num_outputs()) return false;
    for (size_t i = 1; i < n.num_inputs(); ++i) {
      const TensorDesc* d = n.SourceDesc(i);
      if (!d || !Same(*d, *in[i - 1])) return false;
    }
    for (size_t j = 0; j < out.size(); ++j)
      if (!Same(*out[j], n.output_desc(j))) return false;
    if (!StaticSubgraph(*it->second, device)) return false;
  }
  return true;
}

// Loop(M, cond, v_initial..., captures...) -> (v_final..., scan outputs...);
// a scan output needs a static length (a trip count constants decide,
// InferLoop), else it stays in v2.
bool SinksLoop(const Node& n, hal::Device& device) {
  const int64_t captures = n.GetInt("_captures", 0);
  const int64_t carried = static_cast<int64_t>(n.num_inputs()) - 2 - captures;
  if (carried < 0 || carried > static_cast<int64_t>(n.num_outputs())) return false;
  const TensorDesc* m = n.SourceDesc(0);
  const TensorDesc* cond = n.SourceDesc(1);
  if ((!m && !cond) || (m && !ScalarOf(*m, DataType::kInt64)) || (cond && !ScalarOf(*cond, DataType::kBool))) return false;
  auto it = n.subgraphs().find("body");
  if (it == n.subgraphs().end() || !it->second) return false;
  std::vector<const TensorDesc*> in, out;
  if (!Interface(*it->second, in, out) || in.size() != n.num_inputs() || out.size() != 1 + n.num_outputs()) return false;
  for (size_t j = static_cast<size_t>(carried); j < n.num_outputs(); ++j) {
    const TensorDesc& stacked = n.output_desc(j);
    const TensorDesc& slice = *out[1 + j];
    if (!stacked.is_static() || !slice.is_static() || stacked.dtype != slice.dtype ||
        std::vector<int64_t>(stacked.dims.begin() + 1, stacked.dims.end()) != slice.dims)
      return false;
  }
  if (!ScalarOf(*in[0], DataType::kInt64) || !ScalarOf(*in[1], DataType::kBool) || !ScalarOf(*out[0], DataType::kBool))
    return false;
  for (int64_t k = 0; k < carried; ++k) {
    const TensorDesc* init = n.SourceDesc(2 + k);
    const TensorDesc& v = n.output_desc(k);
    if (!init || !Same(*init, v) || !Same(*in[2 + k], v) || !Same(*out[1 + k], v)) return false;
  }
  for (int64_t c = 0; c < captures; ++c) {
    const TensorDesc* d = n.SourceDesc(2 + carried + c);
    if (!d || !Same(*d, *in[2 + carried + c])) return false;
  }
  return StaticSubgraph(*it->second, device);
}

}  // namespace

bool SinksControlFlow(const Node& n, hal::Device& device) {
  if (n.type() == "If") return SinksIf(n, device);
  if (n.type() == "Loop") return SinksLoop(n, device);
  return false;
}

bool HasControlFlow(const Graph& g) {
  for (const Node* n : g.nodes())
    if (IsLinkedControlFlow(*n)) return true;
  return false;
}

}  // namespace ge::partition
