// What the model verifier derives once and its checks share (private to
// ge_plan).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ge/model.h"
#include "ge/plan/happens_before.h"
#include "ge/plan/verify.h"

namespace ge::verify {

using TensorKey = std::pair<const Node*, int>;

struct Facts {
  explicit Facts(const Model& m) : model(m), plan(m.memory) {}
  const Model& model;
  const MemoryPlan& plan;
  std::map<std::string, const Node*> nodes;
  std::vector<Node*> topo;                          // the graph's topological order, computed once
  std::map<TensorKey, const BufferPlan*> buffers;  // one per node output
  std::optional<streams::HappensBefore> hb;
  std::map<const Node*, streams::TaskPos> task;    // the kernel task of a node

  const BufferPlan& Buffer(const Node* n, int out) const { return *buffers.at({n, out}); }
  const BufferPlan& SourceBuffer(const Node& n, size_t in) const {
    const Endpoint src = n.InputSource(in);
    return Buffer(src.node, src.index);
  }
};

inline Status Fail(const std::string& msg) { return Corrupt("model check: " + msg); }
// "feature_map+4096"
inline std::string Addr(Segment s, int64_t offset) { return std::string(SegmentName(s)) + "+" + std::to_string(offset); }
inline std::string Addr(const BufferPlan& b) { return Addr(b.segment, b.offset); }
inline std::string TensorName(const Node* n, int out) { return n->name() + ":" + std::to_string(out); }

// verify_memory.cc: sharing, in-place writes and IO bindings.
Status CheckMemory(const Facts& f);
// Every pair of tensors CheckMemory's overlap rule rejects (it stops at the
// first); `f` prepared by PrepareMemoryFacts.
Status FindOverlaps(const Facts& f, std::vector<MemoryOverlap>* out);
// verify_model.cc: what FindOverlaps needs (nodes, order, buffers, tasks,
// happens-before), failing as VerifyModel does when those are broken.
Status PrepareMemoryFacts(Facts& f);

}  // namespace ge::verify
