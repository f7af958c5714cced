// Reference 3.2 (GE's HandleMemoryRWConflict): every consumer input is
// checked against the read/write type of the output it reads, and where the
// decision matrix says so an Identity gives the consumer a copy of its own.
// Subgraphs first (the pass manager runs it innermost first), so a
// control-flow node's input type sees what its subgraphs write.
#include <spdlog/spdlog.h>

#include "ge/ops/memory_semantics.h"
#include "memory_conflict/memory_conflict_passes.h"
#include "memory_conflict/rw_types.h"

namespace ge {
namespace {

Status HandleRwConflicts(Graph& g, const PassContext&) {
  struct Site {
    Node* consumer;
    int input;
    std::string why;
  };
  std::vector<Site> sites;
  mem_conflict::SubgraphWrites writes;
  for (Node* n : g.nodes())
    for (size_t o = 0; o < n->num_outputs(); ++o) {
      const mem_conflict::OutputRw out = mem_conflict::OutputRwOf(*n, static_cast<int>(o));
      for (const Endpoint& c : n->OutputConsumers(o)) {
        // HcclMemcpyPass has isolated these already.
        if (c.node->GetBool(kAttrSkipRwConflict, false)) continue;
        const mem_conflict::InputRw in = mem_conflict::InputRwOf(*c.node, static_cast<size_t>(c.index), writes);
        if (mem_conflict::NeedsIdentity(out, in))
          sites.push_back({c.node, c.index, std::string(mem_conflict::OutputRwName(out)) + " output of " + n->Label() +
                                                " into a " + mem_conflict::InputRwName(in) + " input"});
      }
    }
  for (const Site& s : sites) {
    GE_ASSIGN_OR_RETURN(Node* copy, InsertIsolation(g, s.consumer, s.input));
    spdlog::debug("memory_rw_conflict: {} before {} input {}: {}", copy->name(), s.consumer->Label(), s.input, s.why);
  }
  return Status::Ok();
}

}  // namespace

Pass RwConflictPass() { return InSubgraphsToo(OptionalPass("memory_rw_conflict", "memory", HandleRwConflicts)); }

}  // namespace ge
