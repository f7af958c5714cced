// The memory plan: symbols (tensors sharing memory), their lifetimes over
// the execution order, and a segment and offset for each.
#include "memory/memory_planner.h"

#include <algorithm>
#include <map>
#include <optional>

#include "ge/analysis/layout_conflicts.h"
#include "ge/analysis/memory_symbols.h"
#include "ge/plan/happens_before.h"
#include "ge_base/checked_math.h"
#include "ge/ops/kernel_spec.h"
#include "ge/ops/memory_alias.h"
#include "ge/ops/memory_semantics.h"
#include "ge/ops/op_registry.h"

namespace ge::memory {
namespace {

struct Sym {
  std::vector<std::pair<const Node*, int>> members;  // the tensors sharing it
  int64_t size = 0;
  int32_t first = 0, last = 0;
  Node* root = nullptr;  // the node that produces the memory
  bool graph_output = false;
  Segment segment = Segment::kFeatureMap;
  int64_t offset = 0;
};

using TensorKey = std::pair<const Node*, int>;

// Which feature-map symbols may not share memory on a multi-stream schedule:
// a and b may share only if every task touching a happens before b's
// producer starts, or the other way round. Per symbol, the last touching
// task on each stream is compared with the other's producer's vector clock.
template <typename Accesses>
Result<std::vector<std::vector<char>>> StreamConflicts(const std::vector<Sym>& syms, const std::vector<size_t>& fm,
                                                       const streams::HappensBefore& hb, const Accesses& accesses) {
  const size_t n = fm.size();
  const int32_t streams_n = hb.num_streams();
  std::vector<std::vector<int32_t>> last(n, std::vector<int32_t>(streams_n, -1));
  std::vector<const std::vector<int32_t>*> clock(n);
  for (size_t j = 0; j < n; ++j) {
    const Sym& sym = syms[fm[j]];
    const auto root = hb.Find(sym.root->name());
    if (!root) return Internal("memory plan: the schedule has no task for " + sym.root->Label());
    clock[j] = &hb.Clock(*root);
    std::vector<streams::TaskPos> touch;
    for (const auto& [m, o] : sym.members) accesses(m, o, touch);
    for (const streams::TaskPos& t : touch) last[j][t.stream] = std::max(last[j][t.stream], t.index);
  }
  auto all_before = [&](size_t a, size_t b) {  // every task of a precedes b's producer
    for (int32_t t = 0; t < streams_n; ++t)
      if (last[a][t] > (*clock[b])[t]) return false;
    return true;
  };
  std::vector<std::vector<char>> out(n, std::vector<char>(n, 0));
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b) out[a][b] = out[b][a] = !(all_before(a, b) || all_before(b, a));
  return out;
}

// The input output i of n may be computed over, or -1: the kernel can (the
// op registry's in-place outputs), and with inplace_requires_mark the
// inplace_support_check pass marked that input.
int InplaceCandidate(const Node& n, size_t i, const OpDef* def, const PlanOptions& options) {
  const int in = def ? def->memory.InplaceInput(static_cast<int>(i)) : -1;
  if (in < 0 || !options.inplace_requires_mark) return in;
  const std::vector<int64_t> marked = n.GetInts(kAttrInplaceSupportInputIndex);
  return std::find(marked.begin(), marked.end(), static_cast<int64_t>(in)) != marked.end() ? in : -1;
}

// Reference 3.4's read filter: memory of a model input, a constant or a
// variable (or a view of one) is never overwritten in place.
bool ReadOnlySource(const Sym& sym) {
  if (sym.root->type() == op::kData || sym.root->type() == op::kConst || IsVariable(*sym.root)) return true;
  for (const auto& [m, o] : sym.members)
    if (ReferencedVariable(*m, static_cast<size_t>(o))) return true;
  return false;
}

// Reference 3.4's write filter: an output that must sit in a continuous
// block (its own op's, or a consumer's) or that is a variable's memory is
// laid out by those rules, not by an input's place.
bool NeedsOwnLayout(const Node& n, size_t out) {
  const MemorySemantics& m = SemanticsOf(n);
  if (m.continuous_output || m.nopadding_continuous_output || ReferencedVariable(n, out)) return true;
  for (const Endpoint& c : n.OutputConsumers(out)) {
    const MemorySemantics& cm = SemanticsOf(*c.node);
    if (cm.continuous_input || cm.nopadding_continuous_input) return true;
  }
  return false;
}

}  // namespace

Result<std::vector<Node*>> ExecutionOrder(const Graph& g) { return g.TopologicalOrder(); }

Result<MemoryPlan> PlanMemory(const Graph& g, const PlanOptions& options) {
  const int64_t align = options.alignment;
  if (align <= 0 || (align & (align - 1)) != 0)
    return InvalidArgument("memory alignment " + std::to_string(align) + " is not a power of two");
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, ExecutionOrder(g));
  std::map<const Node*, int32_t> step;
  for (size_t i = 0; i < order.size(); ++i) step[order[i]] = static_cast<int32_t>(i);
  // Several streams: happens-before decides what may share memory.
  std::optional<streams::HappensBefore> hb;
  if (options.schedule && options.schedule->size() > 1) {
    GE_ASSIGN_OR_RETURN(streams::HappensBefore built, streams::HappensBefore::Build(*options.schedule));
    hb = std::move(built);
  }
  // The kernel tasks that touch a tensor: its producer and its readers
  // (nodes without a task, like a Reshape, pass the tensor on instead).
  auto accesses = [&](const Node* n, int out, std::vector<streams::TaskPos>& into) {
    if (auto p = hb->Find(n->name())) into.push_back(*p);
    for (const Endpoint& c : n->OutputConsumers(out))
      if (auto p = hb->Find(c.node->name())) into.push_back(*p);
  };

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
  GE_ASSIGN_OR_RETURN(const analysis::MemorySymbols symbols, analysis::MemorySymbols::Build(g));
  std::vector<Sym> syms;
  std::map<TensorKey, int64_t> sym_of;
  const OpRegistry& registry = OpRegistry::Global();
  for (Node* n : order) {
    const OpDef* def = registry.Find(n->type());
    const int32_t s = step[n];
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const TensorKey key{n, static_cast<int>(i)};
      const int64_t bytes = n->output_desc(i).Bytes();
      if (bytes < 0)
        return Unsupported("memory plan: node " + n->Label() + " output " + std::to_string(i) + " has the " +
                           (n->output_desc(i).too_large() ? "too large" : "dynamic") + " shape " +
                           n->output_desc(i).ToString());
      int64_t joined = -1;
      auto input_symbol = [&](int in) -> int64_t {
        if (in < 0 || static_cast<size_t>(in) >= n->num_inputs() || !n->HasInput(in)) return -1;
        Endpoint src = n->InputSource(in);
        auto it = sym_of.find({src.node, src.index});
        return it == sym_of.end() ? -1 : it->second;
      };
      // A reference output shares its input's memory: the symbols analysis
      // says whose (the alias rule, transitively).
      if (const analysis::OutAnchor root = symbols.Root(n, static_cast<int>(i)); root != key)
        joined = sym_of.at({root.first, root.second});
      const int over = options.inplace ? InplaceCandidate(*n, i, def, options) : -1;
      if (joined < 0 && over >= 0) {
        const int64_t cand = input_symbol(over);
        // Size, liveness (every member dies here) and the read filter: not
        // the memory of a source the model must keep (Data, Const, Variable).
        bool ok = cand >= 0 && syms[cand].size == bytes && syms[cand].last == s && !syms[cand].graph_output &&
                  !ReadOnlySource(syms[cand]) && !NeedsOwnLayout(*n, i);
        // Another input reading the same memory would see it half-overwritten.
        for (size_t k = 0; ok && k < n->num_inputs(); ++k)
          if (k != static_cast<size_t>(over) && input_symbol(static_cast<int>(k)) == cand) ok = false;
        // With several streams, "dies here" must hold in every interleaving:
        // each other task touching the memory happens before this node.
        if (ok && hb) {
          const auto self = hb->Find(n->name());
          std::vector<streams::TaskPos> touch;
          for (const auto& [m, o] : syms[cand].members) accesses(m, o, touch);
          for (const streams::TaskPos& t : touch)
            if (!self || (!(t.stream == self->stream && t.index == self->index) && !hb->Before(t, *self))) ok = false;
        }
        // Reference 3.4 IsGraphExistMemConflictSymbol: the merged symbol
        // must not carry incompatible anchor attributes.
        if (ok) {
          if (analysis::MergeWouldConflict(syms[cand].members, {key}, options.root)) ok = false;
        }
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
      sym.members.push_back(key);
      sym.last = std::max(sym.last, last_read[key]);
      sym.graph_output = sym.graph_output || to_output[key];
      sym_of[key] = joined;
    }
  }

  // Every sum below is at most the total of all symbols, aligned: when that
  // fits in int64, no offset, segment or peak can wrap.
  int64_t total = 0;
  for (const Sym& sym : syms) {
    const auto aligned = CheckedAlignUp(sym.size, align);
    const auto sum = aligned ? CheckedAdd(total, *aligned) : std::nullopt;
    if (!sum) return InvalidArgument("memory plan: the tensors' total size does not fit in 64 bits");
    total = *sum;
  }

  MemoryPlan plan;
  plan.alignment = align;
  plan.reuse = options.reuse;
  for (Node* n : order) plan.order.push_back(n->name());

  // Segments. Inputs and weights are laid out in graph order; a symbol that
  // reaches NetOutput lives in the output segment (the user's buffer).
  // Weights every reader takes from its packed copy (weight_prepack) go
  // after the others: a run never reads them, and kept apart from the
  // weights it does read (biases, say) the mapped file's pages holding them
  // (2 MiB at a time where the page cache has huge folios) stay unmapped.
  const auto packed_only = [](const Node& c) {
    bool read = false;
    for (const Endpoint& e : c.OutputConsumers(0)) {
      if (!e.node->HasAttr(PackedInputAttr(static_cast<size_t>(e.index)))) return false;
      read = true;
    }
    return read;
  };
  std::vector<size_t> cold_weights;
  std::map<const Node*, size_t> input_index;
  const std::vector<Node*> data = g.InputNodes();
  for (size_t i = 0; i < data.size(); ++i) input_index[data[i]] = i;
  plan.inputs.resize(data.size());
  std::vector<size_t> fm;
  for (size_t k = 0; k < syms.size(); ++k) {
    Sym& sym = syms[k];
    if (sym.root->type() == op::kConst) {
      sym.segment = Segment::kWeights;
      if (packed_only(*sym.root)) {
        cold_weights.push_back(k);
        continue;
      }
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
  for (size_t k : cold_weights) {
    syms[k].offset = plan.weights_size;
    plan.weights_size += AlignUp(syms[k].size, align);
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
      // One tensor may be several outputs: this sum is not bounded by `total`.
      const auto grown = CheckedAdd(plan.output_size, AlignUp(b.size, align));
      if (!grown) return InvalidArgument("memory plan: the outputs' total size does not fit in 64 bits");
      plan.output_size = *grown;
      plan.outputs.push_back(b);
    }
  }

  // The feature map: pack the symbols by lifetime.
  std::vector<Interval> intervals;
  for (size_t k : fm) intervals.push_back({syms[k].size, syms[k].first, syms[k].last});
  Packing packing;
  if (!hb) {
    packing = PackIntervals(intervals, align, options.reuse);
    plan.lower_bound = LowerBound(intervals, align);
  } else {
    GE_ASSIGN_OR_RETURN(const std::vector<std::vector<char>> conflicts, StreamConflicts(syms, fm, *hb, accesses));
    const Conflict conflict = [&conflicts](size_t a, size_t b) { return conflicts[a][b] != 0; };
    plan.lower_bound = LowerBoundWithConflicts(intervals, align, conflict);
    packing = PackWithConflicts(intervals, align, options.reuse, conflict, plan.lower_bound);
  }
  for (size_t j = 0; j < fm.size(); ++j) syms[fm[j]].offset = packing.offsets[j];
  plan.feature_map_size = packing.peak;
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
