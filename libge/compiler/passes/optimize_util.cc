#include "passes/optimize_util.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "hal/device.h"
#include "hal/memory.h"
#include "ge/ops/kernel_spec.h"
#include "ge/ops/memory_semantics.h"
#include "ge/ops/op_registry.h"

namespace ge::opt {

bool HasSideEffects(const Node& n) {
  // Random generators give a new value each run: folding or merging them
  // would change what the model computes.
  static const std::set<std::string> kRandom = {"RandomNormal", "RandomUniform", "RandomNormalLike",
                                                "RandomUniformLike", "Multinomial", "Bernoulli"};
  // Writes into an input, variables and atomic accumulation: the memory
  // passes' ops (memory_semantics.h) act beyond their outputs too.
  return n.GetBool(kAttrCannotBeDeleted, false) || !n.subgraphs().empty() || kRandom.count(n.type()) != 0 ||
         HasMemoryEffects(n);
}

bool IsStructural(const Node& n) {
  return n.type() == op::kData || n.type() == op::kNetOutput || n.type() == op::kConst;
}

bool HasComputedShape(const Node& n) {
  const OpDef* def = OpRegistry::Global().Find(n.type());
  return def && def->computed_shape;
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

std::optional<std::vector<int64_t>> ConstIntsOrAttr(const Node& n, size_t i, const std::string& attr, bool* absent) {
  *absent = false;
  if (n.HasInput(i)) {
    const Tensor* t = ConstInput(n, i);
    if (!t) return std::nullopt;
    return t->ToInt64();
  }
  if (n.HasAttr(attr)) return n.GetInts(attr);
  *absent = true;
  return std::vector<int64_t>{};
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

namespace {

// The outputs' descs: the node's, with the dims the kernel computes for ops
// whose shapes only the computation knows (OpDef::computed_shape). Those
// must agree with every dim inference knew.
Result<std::vector<TensorDesc>> OutputDescs(const Node& n, hal::Kernel& kernel, const void* const* inputs) {
  std::vector<TensorDesc> descs;
  for (size_t i = 0; i < n.num_outputs(); ++i) descs.push_back(n.output_desc(i));
  if (HasComputedShape(n)) {
    std::vector<std::vector<int64_t>> dims;
    GE_RETURN_IF_ERROR(kernel.OutputDims(inputs, dims));
    if (dims.size() != descs.size())
      return Internal("evaluate: " + n.Label() + ": the kernel gave " + std::to_string(dims.size()) + " output shapes");
    for (size_t i = 0; i < descs.size(); ++i) {
      const TensorDesc& d = descs[i];
      bool agree = d.unknown_rank() || d.dims.size() == dims[i].size();
      for (size_t k = 0; agree && !d.unknown_rank() && k < d.dims.size(); ++k)
        agree = d.dims[k] < 0 || d.dims[k] == dims[i][k];
      if (!agree)
        return Internal("evaluate: " + n.Label() + " output " + std::to_string(i) + " came out as " +
                        DimsToString(dims[i]) + ", inferred " + descs[i].ToString());
      descs[i].dims = std::move(dims[i]);
    }
  }
  for (size_t i = 0; i < descs.size(); ++i)
    if (descs[i].Bytes() < 0)
      return Internal("evaluate: " + n.Label() + " output " + std::to_string(i) + " is not static: " + descs[i].ToString());
  return descs;
}

}  // namespace

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
    Result<size_t> checked = spec.inputs[i].CheckedBytes();
    if (!checked.ok()) return checked.status().Annotated("evaluate: " + n.Label() + " input " + std::to_string(i));
    const size_t bytes = *checked;
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
  GE_ASSIGN_OR_RETURN(std::vector<TensorDesc> descs, OutputDescs(n, *kernel, in_ptrs.data()));
  std::vector<hal::DeviceBuffer> out_bufs;
  std::vector<void*> out_ptrs;
  for (const TensorDesc& d : descs) {
    GE_ASSIGN_OR_RETURN(auto b, host.Allocate(std::max<size_t>(static_cast<size_t>(d.Bytes()), 1)));
    out_ptrs.push_back(b.data());
    out_bufs.push_back(std::move(b));
  }
  GE_RETURN_IF_ERROR(kernel->Run(in_ptrs.data(), out_ptrs.data()));
  std::vector<Tensor> out;
  for (size_t i = 0; i < descs.size(); ++i)
    out.emplace_back(descs[i], out_ptrs[i], static_cast<size_t>(descs[i].Bytes()));
  return out;
}

}  // namespace ge::opt
