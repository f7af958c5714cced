#include "v2/lowering.h"

#include <algorithm>

#include "ge/ops/memory_alias.h"

namespace ge::v2 {
namespace {

// Frees the values whose last reader just ran.
struct FreeContext {
  RunState* state;
  std::vector<Value*> values;
};

int FreeMemory(void* context) {
  auto* c = static_cast<FreeContext*>(context);
  for (Value* v : c->values) c->state->memory->Free(*v);
  return 0;
}

}  // namespace

const NodeConverterRegistry& NodeConverterRegistry::Global() {
  static const NodeConverterRegistry* r = [] {
    auto* reg = new NodeConverterRegistry;
    RegisterBuiltinConverters(*reg);
    return reg;
  }();
  return *r;
}

const NodeConverter& NodeConverterRegistry::Find(const std::string& type) const {
  auto it = converters_.find(type);
  return it != converters_.end() ? it->second : default_;
}

Value* Lowering::ValueOf(const Node* node, int output) {
  auto key = std::make_pair(node, output);
  auto it = values_.find(key);
  if (it != values_.end()) return it->second;
  Value* v = &value_store_.emplace_back();
  const TensorDesc& d = node->output_desc(static_cast<size_t>(output));
  v->dtype = d.dtype;
  v->dims = d.dims;
  v->channel_block = ChannelBlockOf(d.format);
  values_.emplace(key, v);
  return v;
}

int Lowering::ViewOf(const Node& node, size_t out) {
  // The alias rule the static plan follows (memory_alias.h): a node whose
  // every output aliases an input runs no kernel; its outputs are views.
  return RunsKernel(node) ? -1 : AliasedInput(node, out);
}

Status Lowering::Run() {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, graph_.TopologicalOrder());
  // The owner of each value's memory: views resolved to what they view.
  auto owner = [&](Endpoint e) {
    while (e.valid()) {
      const int in = ViewOf(*e.node, static_cast<size_t>(e.index));
      if (in < 0) break;
      e = e.node->InputSource(static_cast<size_t>(in));
    }
    return e;
  };
  for (Node* n : order)
    for (size_t j = 0; j < n->num_outputs(); ++j) {
      const Endpoint o = owner(Endpoint{n, static_cast<int>(j)});
      if (o.node != n) ValueOf(n, static_cast<int>(j))->owner = ValueOf(o);
    }
  // Readers of each memory owner, in topological order: the last one frees
  // it, unless the user gets it back (a NetOutput reads it). Only op outputs
  // own allocator memory: Data and Const values are bound elsewhere.
  std::map<std::pair<const Node*, int>, std::vector<const Node*>> readers;
  for (Node* n : order)
    for (size_t i = 0; i < n->num_inputs(); ++i)
      if (n->HasInput(i)) {
        const Endpoint o = owner(n->InputSource(i));
        readers[{o.node, o.index}].push_back(n);
      }
  std::map<const Node*, std::vector<Endpoint>> frees_after;
  for (const auto& [key, list] : readers) {
    const Node* producer = key.first;
    const bool kept = std::any_of(list.begin(), list.end(), [](const Node* r) { return r->type() == op::kNetOutput; });
    if (kept || producer->type() == op::kData || producer->type() == op::kConst) continue;
    frees_after[list.back()].push_back(Endpoint{const_cast<Node*>(producer), key.second});
  }
  const NodeConverterRegistry& registry = NodeConverterRegistry::Global();
  // Per graph node: the Main node that finishes it (-1: none, e.g. Data).
  std::map<const Node*, long> done;
  auto after = [&](const Node* dep, uint32_t node) {
    auto it = done.find(dep);
    if (it != done.end() && it->second >= 0) edges_.push_back(ExecEdge{static_cast<uint32_t>(it->second), node});
  };
  for (Node* n : order) {
    const NodeConverter& convert = registry.Find(n->type());
    if (!convert) return Internal("v2 lowering: no converter for " + n->Label());
    const size_t begin = exec_.main.size();
    GE_RETURN_IF_ERROR(convert(*n, *this));
    const size_t end = exec_.main.size();
    if (begin < end) {
      for (size_t i = 0; i < n->num_inputs(); ++i)
        if (Node* src = n->InputNode(i)) after(src, static_cast<uint32_t>(begin));
      for (Node* src : n->control_inputs()) after(src, static_cast<uint32_t>(begin));
      for (size_t k = begin + 1; k < end; ++k) edges_.push_back(ExecEdge{static_cast<uint32_t>(k - 1), static_cast<uint32_t>(k)});
    }
    main_labels_.resize(end, "node " + n->Label());
    done[n] = end > begin ? static_cast<long>(end) - 1 : -1;
    // A node without Main nodes of its own (Data, Const) is done at load;
    // one that only passes values on (NetOutput) finishes with them.
    auto it = frees_after.find(n);
    if (it == frees_after.end()) continue;
    auto* c = Make<FreeContext>();
    c->state = &state_;
    const uint32_t free_node = static_cast<uint32_t>(exec_.main.size());
    for (const Endpoint& e : it->second) {
      c->values.push_back(ValueOf(e));
      for (const Node* r : readers[{e.node, e.index}]) after(r, free_node);
    }
    AddMain(FreeMemory, c);
    main_labels_.resize(exec_.main.size(), "node " + n->Label());
  }
  return Status::Ok();
}

}  // namespace ge::v2
