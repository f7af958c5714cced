#include <algorithm>
#include <map>

#include "ge/plan/checks.h"
#include "ge/plan/happens_before.h"

namespace ge {

// Several streams: feature-map symbols that overlap in memory must be
// ordered — every kernel task touching one happens before the other's
// producer (docs/streams.md). Lifetimes over the order cannot show a race
// between streams; this can.
Status CheckStreamSharing(const Model& m) {
  if (m.streams.size() <= 1) return Status::Ok();
  if (!m.graph) return InvalidArgument("a model without a graph");
  std::map<std::string, const Node*> nodes;
  for (const Node* n : m.graph->nodes()) nodes[n->name()] = n;
  GE_ASSIGN_OR_RETURN(streams::HappensBefore hb, streams::HappensBefore::Build(m.streams));
  std::map<std::string, size_t> step;
  for (size_t i = 0; i < m.memory.order.size(); ++i) step[m.memory.order[i]] = i;
  struct Sym {
    int64_t offset = 0, size = 0;
    std::string producer;
    std::vector<streams::TaskPos> touch;
  };
  std::map<int64_t, Sym> syms;
  for (const BufferPlan& b : m.memory.buffers) {
    if (b.segment != Segment::kFeatureMap) continue;
    Sym& s = syms[b.symbol];
    s.offset = b.offset;
    s.size = std::max(s.size, b.size);
    if (s.producer.empty() || step[b.node] < step[s.producer]) s.producer = b.node;
    auto found = nodes.find(b.node);
    if (found == nodes.end()) return InvalidArgument("a buffer of unknown node " + b.node);
    const Node* n = found->second;
    if (auto p = hb.Find(b.node)) s.touch.push_back(*p);
    for (const Endpoint& c : n->OutputConsumers(b.output))
      if (auto p = hb.Find(c.node->name())) s.touch.push_back(*p);
  }
  auto before = [&](const Sym& a, const Sym& b) {
    const auto root = hb.Find(b.producer);
    if (!root) return false;
    for (const streams::TaskPos& t : a.touch)
      if (!hb.Before(t, *root)) return false;
    return true;
  };
  std::vector<std::pair<int64_t, const Sym*>> by_offset;
  for (const auto& [k, s] : syms)
    if (s.size > 0) by_offset.push_back({k, &s});
  std::sort(by_offset.begin(), by_offset.end(), [](const auto& a, const auto& b) { return a.second->offset < b.second->offset; });
  for (size_t i = 0; i < by_offset.size(); ++i)
    for (size_t j = i + 1; j < by_offset.size() && by_offset[j].second->offset < by_offset[i].second->offset + by_offset[i].second->size; ++j) {
      const Sym& a = *by_offset[i].second;
      const Sym& b = *by_offset[j].second;
      if (!before(a, b) && !before(b, a))
        return InvalidArgument("symbols " + std::to_string(by_offset[i].first) + " (" + a.producer + ") and " + std::to_string(by_offset[j].first) +
                   " (" + b.producer + ") share memory but the streams do not order them");
    }
  return Status::Ok();
}


}  // namespace ge
