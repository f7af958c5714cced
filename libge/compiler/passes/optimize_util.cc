#include "passes/optimize_util.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "hal/device.h"
#include "hal/memory.h"
#include "ge/ops/kernel_spec.h"

namespace ge::opt {

bool HasSideEffects(const Node& n) {
  // Random generators give a new value each run: folding or merging them
  // would change what the model computes.
  static const std::set<std::string> kRandom = {"RandomNormal", "RandomUniform", "RandomNormalLike",
                                                "RandomUniformLike", "Multinomial", "Bernoulli"};
  return n.GetBool(kAttrCannotBeDeleted, false) || !n.subgraphs().empty() || kRandom.count(n.type()) != 0;
}

bool IsStructural(const Node& n) {
  return n.type() == op::kData || n.type() == op::kNetOutput || n.type() == op::kConst;
}

int64_t FoldLimitBytes(const PassContext& ctx) {
  return ctx.options ? ctx.options->fold_limit_bytes : CompileOptions().fold_limit_bytes;
}

void PinOutputNames(Graph& g) {
  Node* out = g.OutputNode();
  if (!out) return;
  std::vector<std::string> names = out->GetStrings("output_names");
  if (names.size() >= out->num_inputs()) return;
  for (size_t i = names.size(); i < out->num_inputs(); ++i) {
    Endpoint src = out->InputSource(i);
    names.push_back(src.valid() ? src.node->name() : "output" + std::to_string(i));
  }
  out->SetAttr("output_names", names);
}

bool CanRedirect(Endpoint from, Endpoint to) {
  if (!from.valid() || !to.valid() || from == to) return false;
  bool feeds_output = false;
  for (const Endpoint& c : from.node->OutputConsumers(from.index))
    if (c.node->type() == op::kNetOutput) feeds_output = true;
  if (!feeds_output) return true;
  if (to.node->type() == op::kData || to.node->type() == op::kConst) return false;
  for (const Endpoint& c : to.node->OutputConsumers(to.index))
    if (c.node->type() == op::kNetOutput) return false;
  return true;
}

Status Redirect(Graph& g, Endpoint from, Endpoint to) {
  PinOutputNames(g);
  return g.ReplaceAllUses(from, to);
}

namespace {
bool Unused(const Node& n) {
  if (!n.control_outputs().empty()) return false;
  for (size_t i = 0; i < n.num_outputs(); ++i)
    if (!n.OutputConsumers(i).empty()) return false;
  return true;
}
}  // namespace

void Remover::Remove(Node* n) {
  for (Node* p : n->InNodes()) candidates_.push_back(p->id());
  for (Node* p : n->control_inputs()) candidates_.push_back(p->id());
  g_.RemoveNode(n);
  ++removed_;
}

int Remover::Sweep() {
  std::map<int64_t, Node*> alive;
  for (Node* n : g_.nodes()) alive[n->id()] = n;
  while (!candidates_.empty()) {
    const int64_t id = candidates_.back();
    candidates_.pop_back();
    auto it = alive.find(id);
    if (it == alive.end()) continue;
    Node* n = it->second;
    // Graph inputs stay inputs; only producers without any use go.
    if (n->type() == op::kData || n->type() == op::kNetOutput || HasSideEffects(*n) || !Unused(*n)) continue;
    alive.erase(it);
    Remove(n);
  }
  return removed_;
}

const Tensor* ConstInput(const Node& n, size_t i) {
  Node* src = n.InputNode(i);
  return src && src->type() == op::kConst ? src->GetTensor("value") : nullptr;
}

Node* AddConst(Graph& g, const std::string& base, Tensor t) {
  Node* c = g.AddNode(op::kConst, g.MakeUniqueName(base), 0, 1);
  c->output_desc(0) = t.desc();
  c->SetAttr("value", std::move(t));
  return c;
}

bool FeedsOutput(const Node& n) {
  for (size_t i = 0; i < n.num_outputs(); ++i)
    for (const Endpoint& c : n.OutputConsumers(i))
      if (c.node->type() == op::kNetOutput) return true;
  return false;
}

Status ReplaceWithConsts(Graph& g, Remover& remover, Node* n, std::vector<Tensor> values) {
  if (values.size() != n->num_outputs()) return Internal("ReplaceWithConsts: " + n->Label() + ": wrong value count");
  PinOutputNames(g);
  const std::string name = n->name();
  std::vector<std::vector<Endpoint>> consumers;
  for (size_t i = 0; i < n->num_outputs(); ++i) consumers.push_back(n->OutputConsumers(i));
  std::vector<Node*> control_outs = n->control_outputs();
  remover.Remove(n);
  for (size_t i = 0; i < values.size(); ++i) {
    if (consumers[i].empty()) continue;
    Node* c = AddConst(g, i == 0 ? name : name + "_" + std::to_string(i), std::move(values[i]));
    for (const Endpoint& e : consumers[i]) GE_RETURN_IF_ERROR(g.AddEdge(c, 0, e.node, e.index));
    for (Node* ctl : control_outs) g.AddControlEdge(c, ctl);
  }
  return Status::Ok();
}

Result<std::vector<Tensor>> EvaluateOnHost(hal::Device& host, const Node& n, const std::vector<const Tensor*>& inputs) {
  hal::KernelSpec spec = BuildKernelSpec(n);
  if (inputs.size() != spec.inputs.size())
    return Internal("evaluate: " + n.Label() + " takes " + std::to_string(spec.inputs.size()) + " inputs");
  // Inputs are copied into aligned buffers: kernels may rely on the 64-byte
  // alignment the runtimes give them.
  std::vector<hal::DeviceBuffer> in_bufs;
  std::vector<const void*> in_ptrs(inputs.size(), nullptr);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i] && !spec.inputs[i].present()) continue;
    const size_t bytes = spec.inputs[i].Bytes();
    if (inputs[i] && inputs[i]->size() != bytes)
      return Internal("evaluate: " + n.Label() + " input " + std::to_string(i) + " size mismatch");
    GE_ASSIGN_OR_RETURN(auto b, host.Allocate(std::max<size_t>(bytes, 1)));
    if (inputs[i] && bytes) std::memcpy(b.data(), inputs[i]->data(), bytes);
    in_ptrs[i] = b.data();
    in_bufs.push_back(std::move(b));
  }
  spec.const_inputs = in_ptrs;
  const hal::KernelRegistry& kernels = host.kernels();
  GE_RETURN_IF_ERROR(kernels.Supports(spec));
  GE_ASSIGN_OR_RETURN(auto kernel, kernels.Create(spec));
  std::vector<hal::DeviceBuffer> out_bufs;
  std::vector<void*> out_ptrs;
  for (const auto& o : spec.outputs) {
    GE_ASSIGN_OR_RETURN(auto b, host.Allocate(std::max<size_t>(o.Bytes(), 1)));
    out_ptrs.push_back(b.data());
    out_bufs.push_back(std::move(b));
  }
  GE_RETURN_IF_ERROR(kernel->Run(in_ptrs.data(), out_ptrs.data()));
  std::vector<Tensor> out;
  for (size_t i = 0; i < n.num_outputs(); ++i) out.emplace_back(n.output_desc(i), out_ptrs[i], spec.outputs[i].Bytes());
  return out;
}

}  // namespace ge::opt
