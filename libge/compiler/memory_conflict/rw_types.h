// The read/write types of reference 3.2.1 and the decision matrix of 3.2.2,
// shared by the read/write conflict pass and its tests.
#pragma once

#include <unordered_map>

#include "ge/ir/graph.h"

namespace ge::mem_conflict {

enum class InputRw { kReadOnly, kWriteable, kScopeWriteable };
enum class OutputRw { kReadOnlyConst, kReadOnly, kSoftRead, kWriteable };

const char* InputRwName(InputRw t);
const char* OutputRwName(OutputRw t);

// The reference's table: whether output type `out` feeding an input of type
// `in` needs an Identity between them.
bool NeedsIdentity(OutputRw out, InputRw in);

// Whether a subgraph writes memory that comes from one of its Data nodes,
// worked out once per subgraph: every input of every enclosing node asks,
// and answered afresh each time the cost multiplied by the inputs per
// nesting level (If nested 20 deep never finished). Holds for one unchanged
// set of graphs: make one per pass run.
class SubgraphWrites {
 public:
  bool WritesInput(const Graph& g);

 private:
  std::unordered_map<const Graph*, bool> known_;
};

// How input i of `n` treats its memory. A control-flow node's inputs are
// scope-writeable when one of its subgraphs writes memory that comes from
// one of its Data nodes (what the subgraph does is local to the node).
InputRw InputRwOf(const Node& n, size_t i, SubgraphWrites& writes);

// The type of output `out` of `n` within its symbol: Const's outputs are
// read-only-const; an output that is a written input's memory (Assign) is
// writeable; otherwise read-only when the memory has two or more readers
// and soft-read with one. Readers are counted over the views sharing the
// memory (an Identity or Reshape passes it on and is no reader itself), not
// past a writer: what Assign or a collective wrote is another version.
OutputRw OutputRwOf(const Node& n, int out);

}  // namespace ge::mem_conflict
