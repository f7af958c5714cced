// The memory plan: symbols (tensors sharing memory), their lifetimes over
// the execution order, and a segment and offset for each.
#include "compiler/memory/memory_planner.h"

#include <algorithm>
#include <map>

#include "ge/ops/op_registry.h"

namespace ge::memory {
namespace {

struct Sym {
  int64_t size = 0;
  int32_t first = 0, last = 0;
  Node* root = nullptr;  // the node that produces the memory
  bool graph_output = false;
  Segment segment = Segment::kFeatureMap;
  int64_t offset = 0;
};

using TensorKey = std::pair<const Node*, int>;

}  // namespace

Result<std::vector<Node*>> ExecutionOrder(const Graph& g) { return g.TopologicalOrder(); }

Result<MemoryPlan> PlanMemory(const Graph& g, const PlanOptions& options) {
  const int64_t align = options.alignment;
  if (align <= 0 || (align & (align - 1)) != 0)
    return InvalidArgument("memory alignment " + std::to_string(align) + " is not a power of two");
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, ExecutionOrder(g));
  std::map<const Node*, int32_t> step;
  for (size_t i = 0; i < order.size(); ++i) step[order[i]] = static_cast<int32_t>(i);

  // Pass 1: each tensor's own last read (its producer's step if never read).
  std::map<TensorKey, int32_t> last_read;
  std::map<TensorKey, bool> to_output;
  for (Node* n : order) {
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      int32_t last = step[n];
      for (const Endpoint& c : n->OutputConsumers(i)) {
        last = std::max(last, step[c.node]);
        if (c.node->type() == op::kNetOutput) to_output[{n, static_cast<int>(i)}] = true;
      }
      last_read[{n, static_cast<int>(i)}] = last;
    }
  }

  // Pass 2: symbols. A reference output joins its input's symbol; an
  // in-place output joins a feature-map symbol whose every member dies here.
  std::vector<Sym> syms;
  std::map<TensorKey, int64_t> sym_of;
  const OpRegistry& registry = OpRegistry::Global();
  for (Node* n : order) {
    const OpDef* def = registry.Find(n->type());
    const int32_t s = step[n];
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const TensorKey key{n, static_cast<int>(i)};
      const int64_t bytes = n->output_desc(i).Bytes();
      if (bytes < 0) return Unsupported("memory plan: node " + n->Label() + " output " + std::to_string(i) +
                                        " has the dynamic shape " + n->output_desc(i).ToString());
      int64_t joined = -1;
      auto input_symbol = [&](int in) -> int64_t {
        if (in < 0 || static_cast<size_t>(in) >= n->num_inputs() || !n->HasInput(in)) return -1;
        Endpoint src = n->InputSource(in);
        auto it = sym_of.find({src.node, src.index});
        return it == sym_of.end() ? -1 : it->second;
      };
      if (def && i < def->memory.reference_outputs.size()) {
        const int64_t cand = input_symbol(def->memory.reference_outputs[i]);
        if (cand >= 0 && syms[cand].size == bytes) joined = cand;
      }
      if (joined < 0 && options.inplace && def &&
          std::find(def->memory.inplace_outputs.begin(), def->memory.inplace_outputs.end(), static_cast<int>(i)) !=
              def->memory.inplace_outputs.end()) {
        const int64_t cand = input_symbol(static_cast<int>(i));
        bool ok = cand >= 0 && syms[cand].size == bytes && syms[cand].last == s && !syms[cand].graph_output &&
                  syms[cand].root->type() != op::kData && syms[cand].root->type() != op::kConst;
        // Another input reading the same memory would see it half-overwritten.
        for (size_t k = 0; ok && k < n->num_inputs(); ++k)
          if (k != i && input_symbol(static_cast<int>(k)) == cand) ok = false;
        if (ok) joined = cand;
      }
      if (joined < 0) {
        Sym sym;
        sym.size = bytes;
        sym.first = sym.last = s;
        sym.root = n;
        joined = static_cast<int64_t>(syms.size());
        syms.push_back(sym);
      }
      Sym& sym = syms[joined];
      sym.last = std::max(sym.last, last_read[key]);
      sym.graph_output = sym.graph_output || to_output[key];
      sym_of[key] = joined;
    }
  }

  MemoryPlan plan;
  plan.alignment = align;
  plan.reuse = options.reuse;
  for (Node* n : order) plan.order.push_back(n->name());

  // Segments. Inputs and weights are laid out in graph order; a symbol that
  // reaches NetOutput lives in the output segment (the user's buffer).
  std::map<const Node*, size_t> input_index;
  const std::vector<Node*> data = g.InputNodes();
  for (size_t i = 0; i < data.size(); ++i) input_index[data[i]] = i;
  plan.inputs.resize(data.size());
  std::vector<size_t> fm;
  for (size_t k = 0; k < syms.size(); ++k) {
    Sym& sym = syms[k];
    if (sym.root->type() == op::kConst) {
      sym.segment = Segment::kWeights;
      sym.offset = plan.weights_size;
      plan.weights_size += AlignUp(sym.size, align);
    } else if (sym.root->type() == op::kData) {
      sym.segment = Segment::kInput;
    } else if (sym.graph_output) {
      sym.segment = Segment::kOutput;
    } else {
      sym.segment = Segment::kFeatureMap;
      fm.push_back(k);
    }
  }
  for (size_t i = 0; i < data.size(); ++i) {
    const int64_t k = sym_of.at({data[i], 0});
    syms[k].offset = plan.input_size;
    plan.inputs[i] = IoBinding{plan.input_size, syms[k].size, false, TaskArg{Segment::kInput, plan.input_size}};
    plan.input_size += AlignUp(syms[k].size, align);
  }
  // Outputs: the first output of an output-segment symbol owns it (zero
  // copy); any other output copies, from wherever its bytes are.
  if (Node* out = g.OutputNode()) {
    std::map<int64_t, bool> bound;
    for (size_t i = 0; i < out->num_inputs(); ++i) {
      Endpoint src = out->InputSource(i);
      if (!src.valid()) return Internal("memory plan: NetOutput input " + std::to_string(i) + " is unconnected");
      const int64_t k = sym_of.at({src.node, src.index});
      IoBinding b;
      b.offset = plan.output_size;
      b.size = src.node->output_desc(src.index).Bytes();
      if (syms[k].segment == Segment::kOutput && !bound[k]) {
        bound[k] = true;
        syms[k].offset = b.offset;
        b.source = TaskArg{Segment::kOutput, b.offset};
      } else {
        b.copy = true;  // its source offset is known once every symbol is placed
      }
      plan.output_size += AlignUp(b.size, align);
      plan.outputs.push_back(b);
    }
  }

  // The feature map: pack the symbols by lifetime.
  std::vector<Interval> intervals;
  for (size_t k : fm) intervals.push_back({syms[k].size, syms[k].first, syms[k].last});
  const Packing packing = PackIntervals(intervals, align, options.reuse);
  for (size_t j = 0; j < fm.size(); ++j) syms[fm[j]].offset = packing.offsets[j];
  plan.feature_map_size = packing.peak;
  plan.lower_bound = LowerBound(intervals, align);
  for (const Interval& iv : intervals) plan.no_reuse_size += AlignUp(iv.size, align);

  if (Node* out = g.OutputNode())
    for (size_t i = 0; i < out->num_inputs(); ++i)
      if (plan.outputs[i].copy) {
        Endpoint src = out->InputSource(i);
        const Sym& sym = syms[sym_of.at({src.node, src.index})];
        plan.outputs[i].source = TaskArg{sym.segment, sym.offset};
      }

  for (Node* n : order)
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const int64_t k = sym_of.at({n, static_cast<int>(i)});
      const Sym& sym = syms[k];
      BufferPlan b;
      b.node = n->name();
      b.output = static_cast<int32_t>(i);
      b.symbol = k;
      b.segment = sym.segment;
      b.offset = sym.offset;
      b.size = n->output_desc(i).Bytes();
      b.first_use = sym.first;
      b.last_use = sym.last;
      plan.buffers.push_back(std::move(b));
    }
  return plan;
}

}  // namespace ge::memory
