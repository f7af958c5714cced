#include "passes/fusion_util.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <set>

#include "hal/device.h"
#include "ge/ops/kernel_spec.h"
#include "hal/fused_attrs.h"

namespace ge::fusion {

const Tensor* ConstOf(const Node* n) {
  if (!n || n->type() != op::kConst) return nullptr;
  return n->GetTensor("value");
}

const Tensor* ConstInput(const Node& n, size_t i) {
  if (!n.HasInput(i) || n.InputSource(i).index != 0) return nullptr;
  return ConstOf(n.InputNode(i));
}

bool IsF32(const TensorDesc& d) { return d.dtype == DataType::kFloat32; }

std::vector<double> F32Values(const Tensor& t) {
  if (!IsF32(t.desc()) || t.empty()) return {};
  const float* p = t.as<float>();
  const size_t n = t.size() / sizeof(float);
  return std::vector<double>(p, p + n);
}

bool AllEqual(const std::vector<int64_t>& v, int64_t x) {
  for (int64_t e : v)
    if (e != x) return false;
  return true;
}

bool Near(std::optional<double> v, double want) { return v && std::abs(*v - want) <= 1e-4 * std::abs(want); }

std::optional<double> ScalarInput(const Node& n, size_t i) {
  const Tensor* t = ConstInput(n, i);
  if (!t || t->desc().NumElements() != 1) return std::nullopt;
  const DataType dt = t->desc().dtype;
  if (dt != DataType::kFloat32 && dt != DataType::kFloat64) return std::nullopt;
  return t->ToDouble()[0];
}

bool NoControl(const Node& n) { return n.control_inputs().empty() && n.control_outputs().empty(); }

bool SingleUse(const Node& n) {
  if (n.num_outputs() == 0 || n.OutputConsumers(0).size() != 1 || !NoControl(n)) return false;
  for (size_t i = 1; i < n.num_outputs(); ++i)
    if (!n.OutputConsumers(i).empty()) return false;
  // A graph output must stay a separate tensor.
  return n.OutputConsumers(0)[0].node->type() != op::kNetOutput;
}

Node* SoleConsumer(const Node& n) { return SingleUse(n) ? n.OutputConsumers(0)[0].node : nullptr; }

int InputIndexOf(const Node& bin, const Node& producer) {
  int found = -1;
  for (size_t i = 0; i < bin.num_inputs(); ++i) {
    Endpoint s = bin.InputSource(i);
    if (s.node == &producer && s.index == 0) {
      if (found >= 0) return -1;  // x op x: not a pattern we fuse
      found = static_cast<int>(i);
    }
  }
  return found;
}

bool DependsOn(const Node* start, const Node* target) {
  std::vector<const Node*> stack = {start};
  std::set<const Node*> seen;
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n == target) return true;
    if (!seen.insert(n).second) continue;
    for (Node* in : n->InNodes()) stack.push_back(in);
    for (Node* in : n->control_inputs()) stack.push_back(in);
  }
  return false;
}

Node* AddConst(Graph& g, const std::string& base, Tensor value) {
  Node* c = g.AddNode(op::kConst, g.MakeUniqueName(base), 0, 1);
  c->output_desc(0) = value.desc();
  c->SetAttr("value", std::move(value));
  return c;
}

Tensor MakeF32(std::vector<int64_t> dims, const std::vector<double>& values) {
  std::vector<float> f(values.begin(), values.end());
  return Tensor::FromVector(DataType::kFloat32, std::move(dims), f);
}

Status Redirect(Graph& g, Node* from, Node* to) {
  // Pin the model's output names first: without "output_names" they are the
  // producers' names, and the fused node usually has another one.
  if (Node* out = g.OutputNode()) {
    std::vector<std::string> names = out->GetStrings("output_names");
    if (names.size() < out->num_inputs()) {
      for (size_t i = names.size(); i < out->num_inputs(); ++i) {
        Endpoint src = out->InputSource(i);
        names.push_back(src.valid() ? src.node->name() : "output" + std::to_string(i));
      }
      out->SetAttr("output_names", names);
    }
  }
  return g.ReplaceAllUses(Endpoint{from, 0}, Endpoint{to, 0});
}

void RemoveIfUnused(Graph& g, const std::vector<Node*>& nodes) {
  // Removing one node may leave others of the list (and constants) unused:
  // sweep until nothing changes. Only listed nodes and Consts are touched.
  std::vector<Node*> cand;
  for (Node* n : nodes)
    if (n && std::find(cand.begin(), cand.end(), n) == cand.end()) cand.push_back(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < cand.size(); ++k) {
      Node* n = cand[k];
      if (!n || n->type() == op::kData || n->type() == op::kNetOutput) continue;
      bool used = !n->control_outputs().empty();
      for (size_t i = 0; i < n->num_outputs() && !used; ++i) used = !n->OutputConsumers(i).empty();
      if (used) continue;
      for (Node* in : n->InNodes())
        if (in->type() == op::kConst && std::find(cand.begin(), cand.end(), in) == cand.end()) cand.push_back(in);
      cand[k] = nullptr;
      g.RemoveNode(n);
      changed = true;
    }
  }
}

bool Supported(const PassContext& ctx, const Node& n) { return Supported(ctx, BuildKernelSpec(n)); }

Result<bool> ReplaceIfSupported(Graph& g, const PassContext& ctx, Node* fused, Node* last,
                                const std::vector<Node*>& pattern) {
  if (!Supported(ctx, *fused)) {
    RemoveIfUnused(g, {fused});
    return false;
  }
  GE_RETURN_IF_ERROR(Redirect(g, last, fused));
  RemoveIfUnused(g, pattern);
  return true;
}

// The backend answers for concrete shapes. In a dynamic model every unknown
// dim is asked as 2 (the same value everywhere, so dims that must agree
// still do; not 1, which would look like a broadcast); an unknown rank is
// not asked at all. The runtime asks again per shape when it prepares the
// kernel.
bool Supported(const PassContext& ctx, hal::KernelSpec spec) {
  if (!ctx.device) return false;
  auto concrete = [](hal::TensorInfo& t) {
    if (!t.present()) return true;
    for (int64_t& d : t.dims) {
      if (d == kUnknownRank) return false;
      if (d == kUnknownDim) d = 2;
    }
    return true;
  };
  for (auto& t : spec.inputs)
    if (!concrete(t)) return false;
  for (auto& t : spec.outputs)
    if (!concrete(t)) return false;
  return ctx.device->kernels().Supports(spec).ok();
}

bool ActivationAttrs(const Node& act, std::map<std::string, AttrValue>* attrs) {
  const std::optional<hal::FusedActivation> kind = hal::ActivationFromName(act.type());
  if (!kind || *kind == hal::FusedActivation::kNone) return false;
  if (*kind == hal::FusedActivation::kGelu && act.GetString("approximate", "none") != "none") return false;
  if (*kind == hal::FusedActivation::kHardSigmoid) {  // mobilenet_v3's gate: alpha and beta travel with it
    (*attrs)[hal::kAttrActivationAlpha] = act.GetFloat("alpha", 0.2f);
    (*attrs)[hal::kAttrActivationBeta] = act.GetFloat("beta", 0.5f);
  }
  if (*kind == hal::FusedActivation::kClip) {
    // Opset 11+: optional constant inputs 1 and 2; before: attributes.
    float lo = act.GetFloat("min", -FLT_MAX), hi = act.GetFloat("max", FLT_MAX);
    for (size_t i = 1; i <= 2; ++i) {
      if (!act.HasInput(i)) continue;
      std::optional<double> v = ScalarInput(act, i);
      if (!v) return false;  // a bound computed at run time cannot become an attribute
      (i == 1 ? lo : hi) = static_cast<float>(*v);
    }
    (*attrs)[hal::kAttrActivationMin] = lo;
    (*attrs)[hal::kAttrActivationMax] = hi;
  }
  (*attrs)[hal::kAttrActivation] = std::string(hal::ActivationName(*kind));
  return true;
}

bool HasPostOps(const Node& n) { return n.HasAttr(hal::kAttrFusedSum) || n.HasAttr(hal::kAttrActivation); }

void ApplyAttrs(const std::map<std::string, AttrValue>& attrs, Node* n) {
  for (const auto& [k, v] : attrs) n->SetAttr(k, v);
}

void ApplyAttrs(const std::map<std::string, AttrValue>& attrs, hal::KernelSpec* spec) {
  for (const auto& [k, v] : attrs) {
    if (const auto* s = std::get_if<std::string>(&v)) spec->attrs.Set(k, *s);
    else if (const auto* f = std::get_if<float>(&v)) spec->attrs.Set(k, static_cast<double>(*f));
    else if (const auto* i = std::get_if<int64_t>(&v)) spec->attrs.Set(k, *i);
    else if (const auto* l = std::get_if<std::vector<int64_t>>(&v)) spec->attrs.Set(k, *l);
  }
}

hal::TensorInfo InfoOf(const TensorDesc& d) { return hal::TensorInfo{d.dtype, d.dims, ChannelBlockOf(d.format)}; }

// A rewrite does not restart the sweep from the first node (that made a pass
// quadratic in its rewrites on big graphs): the sweep goes on from the
// rewritten node, found again by id since the graph keeps its nodes in id
// order and appends new ones; sweeps repeat until one rewrites nothing.
Status RunToFixpoint(Graph& g, const std::function<Result<bool>(Graph&, Node*)>& try_fuse) {
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<Node*> nodes = g.nodes();
    for (size_t i = 0; i < nodes.size();) {
      const int64_t id = nodes[i]->id();
      GE_ASSIGN_OR_RETURN(bool fired, try_fuse(g, nodes[i]));
      if (!fired) {
        ++i;
        continue;
      }
      changed = true;
      nodes = g.nodes();
      i = std::lower_bound(nodes.begin(), nodes.end(), id, [](const Node* n, int64_t v) { return n->id() < v; }) -
          nodes.begin();
    }
  }
  return Status::Ok();
}

std::optional<BnFactors> ReadInferenceBn(const Node& bn) {
  if (bn.type() != "BatchNormalization" || bn.num_inputs() != 5 || !NoControl(bn)) return std::nullopt;
  if (bn.GetInt("training_mode", 0) != 0 || bn.GetInt("spatial", 1) == 0) return std::nullopt;
  for (size_t i = 1; i < bn.num_outputs(); ++i)
    if (!bn.OutputConsumers(i).empty()) return std::nullopt;
  std::vector<double> p[5];
  for (size_t i = 1; i < 5; ++i) {
    const Tensor* t = ConstInput(bn, i);
    if (!t || !IsF32(t->desc())) return std::nullopt;
    p[i] = F32Values(*t);
    if (p[i].size() != p[1].size() || p[i].empty()) return std::nullopt;
  }
  const double eps = bn.GetFloat("epsilon", 1e-5f);
  BnFactors f;
  for (size_t c = 0; c < p[1].size(); ++c) {
    const double mul = p[1][c] / std::sqrt(p[4][c] + eps);
    f.mul.push_back(mul);
    f.add.push_back(p[2][c] - p[3][c] * mul);
  }
  return f;
}

Status SetInput(Graph& g, Node* n, size_t i, Node* src, int src_out) {
  g.RemoveInputEdge(n, static_cast<int>(i));
  return g.AddEdge(src, src_out, n, static_cast<int>(i));
}

Status ReplaceWithFoldedBn(Graph& g, Node* op, Node* bn, const std::string& suffix1, Tensor v1,
                           const std::string& suffix2, Tensor v2) {
  Node* old1 = op->InputNode(1);
  Node* old2 = op->InputNode(2);
  GE_RETURN_IF_ERROR(SetInput(g, op, 1, AddConst(g, op->name() + "_bn_" + suffix1, std::move(v1))));
  GE_RETURN_IF_ERROR(SetInput(g, op, 2, AddConst(g, op->name() + "_bn_" + suffix2, std::move(v2))));
  GE_RETURN_IF_ERROR(Redirect(g, bn, op));
  std::vector<Node*> dead = {bn, old1};
  if (old2) dead.push_back(old2);
  RemoveIfUnused(g, dead);
  return Status::Ok();
}

Result<bool> FoldAffineIntoConv(Graph& g, Node* conv, Node* after, const BnFactors& f, const PassContext& ctx) {
  if (conv->type() != "Conv" || SoleConsumer(*conv) != after) return false;
  // A conv with fused post-ops computes act(conv + sum): the affine map cannot go in.
  if (HasPostOps(*conv)) return false;
  const Tensor* w = ConstInput(*conv, 1);
  if (!w || !IsF32(w->desc()) || w->desc().rank() < 3) return false;
  const int64_t m = w->desc().dims[0];
  if (m != static_cast<int64_t>(f.mul.size()) || m != static_cast<int64_t>(f.add.size())) return false;
  std::vector<double> bias(m, 0.0);
  if (conv->HasInput(2)) {
    const Tensor* b = ConstInput(*conv, 2);
    if (!b || !IsF32(b->desc()) || b->desc().NumElements() != m) return false;
    bias = F32Values(*b);
  }
  // The folded conv always has a bias: make sure the backend takes it.
  hal::KernelSpec spec = BuildKernelSpec(*conv);
  spec.inputs.resize(3);
  spec.inputs[2] = hal::TensorInfo{DataType::kFloat32, {m}};
  if (!Supported(ctx, spec)) return false;

  std::vector<double> wv = F32Values(*w);
  const size_t per = wv.size() / static_cast<size_t>(m);
  for (int64_t c = 0; c < m; ++c) {
    for (size_t j = 0; j < per; ++j) wv[c * per + j] *= f.mul[c];
    bias[c] = bias[c] * f.mul[c] + f.add[c];
  }
  GE_RETURN_IF_ERROR(ReplaceWithFoldedBn(g, conv, after, "W", MakeF32(w->desc().dims, wv), "B", MakeF32({m}, bias)));
  return true;
}

}  // namespace ge::fusion
