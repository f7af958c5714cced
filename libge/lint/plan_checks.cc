// The plan checks: VerifyModel's rules, with the two that have their own
// codes (overlapping memory E18003, a cycle of event waits E18004) listed in
// full rather than stopping at the first.
#include "ge/lint/plan_checks.h"

#include "ge/ir/verifier.h"
#include "ge/plan.h"
#include "ge/plan/verify.h"

namespace ge::lint {
namespace {

// The schedules of a model: its own, or each partition's (dynamic models).
struct Schedule {
  std::string graph;  // "" or the partition's name
  std::vector<StreamTasks> streams;
};
std::vector<Schedule> SchedulesOf(const Model& m) {
  std::vector<Schedule> out;
  if (!m.dynamic) {
    out.push_back({"", m.streams});
    return out;
  }
  for (size_t i = 0; i < m.partitions.size(); ++i) {
    auto sub = PartitionModel(m, i);
    if (sub.ok()) out.push_back({sub->name, sub->streams});
  }
  return out;
}

std::vector<Diagnostic> Cycles(const Model& m) {
  std::vector<Diagnostic> out;
  for (const Schedule& s : SchedulesOf(m)) {
    auto cycle = FindWaitCycle(s.streams);
    if (!cycle.ok() || cycle->empty()) continue;
    Diagnostic d;
    d.graph = s.graph;
    std::string text;
    for (const CycleWait& w : *cycle) {
      if (!w.wait_node.empty()) d.nodes.push_back(w.wait_node);
      text += (text.empty() ? "" : "; ") + std::string("stream ") + std::to_string(w.stream) + " task " +
              std::to_string(w.index) + (w.wait_node.empty() ? "" : " (before " + w.wait_node + ")") + " waits for event " +
              std::to_string(w.event) + ", recorded at stream " + std::to_string(w.record_stream) + " task " +
              std::to_string(w.record_index) + (w.record_node.empty() ? "" : " (after " + w.record_node + ")");
    }
    d.message = "the event waits form a cycle, the streams would deadlock: " + text;
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<Diagnostic> Overlaps(const Model& m) {
  std::vector<Diagnostic> out;
  auto found = FindMemoryOverlaps(m);
  if (!found.ok()) return out;  // the plan is broken earlier: E18002 says how
  for (const MemoryOverlap& o : *found) {
    Diagnostic d;
    d.graph = o.graph;
    d.nodes = {o.a_node};
    if (o.b_node != o.a_node) d.nodes.push_back(o.b_node);
    d.message = o.message;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

void CheckModel(const Model& m, Diagnostics* out) {
  if (!m.graph || !VerifyGraph(*m.graph).ok()) {
    if (!m.graph) out->push_back(Diagnostic{"", Severity::kError, "", {}, "the model has no graph"});
    return;  // E18001 reports a graph that does not verify
  }
  Status s = VerifyModel(m);
  if (s.ok() || !Cycles(m).empty() || !Overlaps(m).empty()) return;
  Diagnostic d;
  d.message = s.message();
  out->push_back(std::move(d));
}

void CheckMemoryOverlaps(const Model& m, Diagnostics* out) {
  if (!m.graph) return;
  for (Diagnostic& d : Overlaps(m)) out->push_back(std::move(d));
}

void CheckWaitCycles(const Model& m, Diagnostics* out) {
  for (Diagnostic& d : Cycles(m)) out->push_back(std::move(d));
}

}  // namespace ge::lint
