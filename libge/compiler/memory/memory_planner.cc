// The memory plan: symbols (tensors sharing memory), their lifetimes over
// the execution order, and a segment and offset for each.
#include "memory/memory_planner.h"

#include <algorithm>
#include <map>
#include <optional>

#include "ge_base/checked_math.h"
#include "ge/ops/kernel_spec.h"
#include "memory/plan_symbols.h"

namespace ge::memory {
namespace {

// Which feature-map symbols may not share memory on a multi-stream schedule:
// a and b may share only if every task touching a happens before b's
// producer starts, or the other way round. Per symbol, the last touching
// task on each stream is compared with the other's producer's vector clock.
Result<std::vector<std::vector<char>>> StreamConflicts(const PlanSymbols& s, const std::vector<size_t>& fm) {
  const streams::HappensBefore& hb = *s.hb;
  const size_t n = fm.size();
  const int32_t streams_n = hb.num_streams();
  std::vector<std::vector<int32_t>> last(n, std::vector<int32_t>(streams_n, -1));
  std::vector<const std::vector<int32_t>*> clock(n);
  for (size_t j = 0; j < n; ++j) {
    const PlanSymbol& sym = s.syms[fm[j]];
    const auto root = hb.Find(sym.root->name());
    if (!root) return Internal("memory plan: the schedule has no task for " + sym.root->Label());
    clock[j] = &hb.Clock(*root);
    std::vector<streams::TaskPos> touch;
    for (const auto& [m, o] : sym.members) TaskAccesses(hb, m, o, touch);
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

// The execution order, each node's step, and with several streams their
// happens-before relation.
Status OrderSteps(const Graph& g, const PlanOptions& options, PlanSymbols& s) {
  GE_ASSIGN_OR_RETURN(s.order, ExecutionOrder(g));
  s.step.reserve(s.order.size());
  for (size_t i = 0; i < s.order.size(); ++i) s.step[s.order[i]] = static_cast<int32_t>(i);
  if (options.schedule && options.schedule->size() > 1) {
    GE_ASSIGN_OR_RETURN(streams::HappensBefore built, streams::HappensBefore::Build(*options.schedule));
    s.hb = std::move(built);
  }
  return Status::Ok();
}

// Every sum of the later steps is at most the total of all symbols,
// aligned: when that fits in int64, no offset, segment or peak can wrap.
Status CheckTotalFits(const std::vector<PlanSymbol>& syms, int64_t align) {
  int64_t total = 0;
  for (const PlanSymbol& sym : syms) {
    const auto aligned = CheckedAlignUp(sym.size, align);
    const auto sum = aligned ? CheckedAdd(total, *aligned) : std::nullopt;
    if (!sum) return InvalidArgument("memory plan: the tensors' total size does not fit in 64 bits");
    total = *sum;
  }
  return Status::Ok();
}

// A Const every reader takes from its packed copy (weight_prepack): a run
// never reads it.
bool ReadPackedOnly(const Node& c) {
  bool read = false;
  for (const Endpoint& e : c.OutputConsumers(0)) {
    if (!e.node->HasAttr(PackedInputAttr(static_cast<size_t>(e.index)))) return false;
    read = true;
  }
  return read;
}

// Segments. Inputs and weights are laid out in graph order; a symbol that
// reaches NetOutput lives in the output segment (the user's buffer).
// Weights every reader takes from its packed copy go after the others: kept
// apart from the weights a run does read (biases, say) the mapped file's
// pages holding them (2 MiB at a time where the page cache has huge folios)
// stay unmapped. Returns the feature-map symbols.
std::vector<size_t> AssignSegments(const Graph& g, PlanSymbols& s, MemoryPlan& plan) {
  const int64_t align = plan.alignment;
  std::vector<size_t> cold_weights, fm;
  for (size_t k = 0; k < s.syms.size(); ++k) {
    PlanSymbol& sym = s.syms[k];
    if (sym.root->type() == op::kConst) {
      sym.segment = Segment::kWeights;
      if (ReadPackedOnly(*sym.root)) {
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
    s.syms[k].offset = plan.weights_size;
    plan.weights_size += AlignUp(s.syms[k].size, align);
  }
  const std::vector<Node*> data = g.InputNodes();
  plan.inputs.resize(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    PlanSymbol& sym = s.syms[static_cast<size_t>(s.SymbolOf(data[i], 0))];
    sym.offset = plan.input_size;
    plan.inputs[i] = IoBinding{plan.input_size, sym.size, false, TaskArg{Segment::kInput, plan.input_size}};
    plan.input_size += AlignUp(sym.size, align);
  }
  return fm;
}

// Outputs: the first output of an output-segment symbol owns it (zero
// copy); any other output copies, from wherever its bytes are (known once
// every symbol is placed: ResolveOutputCopies).
Status BindOutputs(const Graph& g, PlanSymbols& s, MemoryPlan& plan) {
  Node* out = g.OutputNode();
  if (!out) return Status::Ok();
  std::map<int64_t, bool> bound;
  for (size_t i = 0; i < out->num_inputs(); ++i) {
    const Endpoint src = out->InputSource(i);
    if (!src.valid()) return Internal("memory plan: NetOutput input " + std::to_string(i) + " is unconnected");
    const int64_t k = s.SymbolOf(src.node, src.index);
    PlanSymbol& sym = s.syms[static_cast<size_t>(k)];
    IoBinding b;
    b.offset = plan.output_size;
    b.size = src.node->output_desc(src.index).Bytes();
    if (sym.segment == Segment::kOutput && !bound[k]) {
      bound[k] = true;
      sym.offset = b.offset;
      b.source = TaskArg{Segment::kOutput, b.offset};
    } else {
      b.copy = true;
    }
    // One tensor may be several outputs: this sum is not bounded by the total.
    const auto grown = CheckedAdd(plan.output_size, AlignUp(b.size, plan.alignment));
    if (!grown) return InvalidArgument("memory plan: the outputs' total size does not fit in 64 bits");
    plan.output_size = *grown;
    plan.outputs.push_back(b);
  }
  return Status::Ok();
}

// The feature map: pack the symbols `fm` by lifetime (one stream) or by
// the happens-before conflicts of the schedule.
Status PackFeatureMap(PlanSymbols& s, const std::vector<size_t>& fm, MemoryPlan& plan) {
  const int64_t align = plan.alignment;
  std::vector<Interval> intervals;
  intervals.reserve(fm.size());
  for (size_t k : fm) intervals.push_back({s.syms[k].size, s.syms[k].first, s.syms[k].last});
  Packing packing;
  if (!s.hb) {
    packing = PackIntervals(intervals, align, plan.reuse);
    plan.lower_bound = LowerBound(intervals, align);
  } else {
    GE_ASSIGN_OR_RETURN(const std::vector<std::vector<char>> conflicts, StreamConflicts(s, fm));
    const Conflict conflict = [&conflicts](size_t a, size_t b) { return conflicts[a][b] != 0; };
    plan.lower_bound = LowerBoundWithConflicts(intervals, align, conflict);
    packing = PackWithConflicts(intervals, align, plan.reuse, conflict, plan.lower_bound);
  }
  for (size_t j = 0; j < fm.size(); ++j) s.syms[fm[j]].offset = packing.offsets[j];
  plan.feature_map_size = packing.peak;
  for (const Interval& iv : intervals) plan.no_reuse_size += AlignUp(iv.size, align);
  return Status::Ok();
}

// The copied outputs' sources, now that every symbol has its place.
void ResolveOutputCopies(const Graph& g, const PlanSymbols& s, MemoryPlan& plan) {
  Node* out = g.OutputNode();
  if (!out) return;
  for (size_t i = 0; i < out->num_inputs(); ++i)
    if (plan.outputs[i].copy) {
      const Endpoint src = out->InputSource(i);
      const PlanSymbol& sym = s.syms[static_cast<size_t>(s.SymbolOf(src.node, src.index))];
      plan.outputs[i].source = TaskArg{sym.segment, sym.offset};
    }
}

// One BufferPlan per output of every node, in execution order.
void DescribeBuffers(const PlanSymbols& s, MemoryPlan& plan) {
  for (Node* n : s.order)
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const int64_t k = s.SymbolOf(n, static_cast<int>(i));
      const PlanSymbol& sym = s.syms[static_cast<size_t>(k)];
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
}

}  // namespace

Result<std::vector<Node*>> ExecutionOrder(const Graph& g) { return g.TopologicalOrder(); }

Result<MemoryPlan> PlanMemory(const Graph& g, const PlanOptions& options) {
  const int64_t align = options.alignment;
  if (align <= 0 || (align & (align - 1)) != 0)
    return InvalidArgument("memory alignment " + std::to_string(align) + " is not a power of two");
  PlanSymbols s;
  GE_RETURN_IF_ERROR(OrderSteps(g, options, s));
  GE_RETURN_IF_ERROR(BuildPlanSymbols(g, options, s));
  GE_RETURN_IF_ERROR(CheckTotalFits(s.syms, align));
  MemoryPlan plan;
  plan.alignment = align;
  plan.reuse = options.reuse;
  plan.order.reserve(s.order.size());
  for (Node* n : s.order) plan.order.push_back(n->name());
  const std::vector<size_t> fm = AssignSegments(g, s, plan);
  GE_RETURN_IF_ERROR(BindOutputs(g, s, plan));
  GE_RETURN_IF_ERROR(PackFeatureMap(s, fm, plan));
  ResolveOutputCopies(g, s, plan);
  DescribeBuffers(s, plan);
  return plan;
}

}  // namespace ge::memory
