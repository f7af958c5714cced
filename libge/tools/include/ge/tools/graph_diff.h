// What a pass changed: snapshots of the graph after each pass, the nodes
// added, removed and changed between two snapshots, and one node followed
// through all of them (ge-dump diff, ge-dump diff --track).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ge/ir/graph.h"

namespace ge::tools {

// One node as the diff compares it: everything in its text-form line, split
// into fields so a change can say which field changed.
struct NodeSnapshot {
  std::string type;
  std::map<std::string, std::string> attrs;  // name -> AttrToString
  std::vector<std::string> inputs;           // "src:k" or "_" per input
  std::vector<std::string> control_inputs;
  std::vector<std::string> outputs;          // TensorDesc::ToString per output
};

// The graph after one pass; nodes by name (names are unique in a graph). The
// nodes of subgraphs (control flow, partitions, gears) are there too, named
// "owner/subgraph/node".
struct GraphSnapshot {
  std::string pass;  // "parsed" for the graph before any pass
  std::vector<std::string> order;  // node names in text-form order
  std::map<std::string, NodeSnapshot> nodes;
};

// Tensor attributes compare by content (a folded or rewritten constant keeps
// its description), through a digest. Constant bytes are shared between the
// graphs of successive passes, so the cache hashes each buffer once; it keeps
// the tensors alive, so an address is never reused for other bytes.
class DigestCache {
 public:
  const std::string& Digest(const Tensor& t);

 private:
  std::map<const uint8_t*, std::pair<Tensor, std::string>> by_data_;
};

GraphSnapshot TakeSnapshot(const std::string& pass, const Graph& g, DigestCache* cache = nullptr);

struct NodeChange {
  std::string name;
  std::string type;                  // the type after the pass
  std::vector<std::string> details;  // "type Relu -> Conv", "attr alpha: 1 -> 2", "input 1: a:0 -> b:0", ...
};

struct PassDiff {
  std::string pass;
  std::vector<std::string> added;    // "name (Type)" in the new graph's order
  std::vector<std::string> removed;  // "name (Type)" in the old graph's order
  std::vector<NodeChange> changed;   // in the new graph's order
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

// What `after.pass` did to `before`.
PassDiff DiffSnapshots(const GraphSnapshot& before, const GraphSnapshot& after);
// "name (Type)" list formatting and the per-field details of one node.
std::vector<std::string> DiffNode(const NodeSnapshot& a, const NodeSnapshot& b);

// One node through the passes.
struct TrackStep {
  std::string pass;
  enum class State { kPresent, kChanged, kRemoved, kAbsent, kAdded } state = State::kAbsent;
  std::vector<std::string> details;       // for kChanged (and kAdded: its type)
  std::vector<std::string> replaced_by;   // for kRemoved: best guess, "name (Type)"
};
const char* TrackStateName(TrackStep::State s);

// Fails (NotFound, naming the node) when the node is in none of the snapshots.
Result<std::vector<TrackStep>> TrackNode(const std::vector<GraphSnapshot>& snapshots, const std::string& node);

}  // namespace ge::tools
