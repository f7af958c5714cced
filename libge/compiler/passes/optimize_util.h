// Graph-rewrite helpers shared by the optimize passes: what may be touched,
// how a node is replaced without losing the model's output names, and how a
// node is computed on the CPU at compile time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pass.h"
#include "ge/ir/graph.h"
#include "ge/ops/memory_semantics.h"

namespace ge::hal {
class Device;
}

namespace ge::opt {

// Attribute that marks a node the optimizer must keep (GE's
// ATTR_NAME_CANNOT_BE_DELETED): never removed, merged or folded.
using ::ge::kAttrCannotBeDeleted;

// Nodes with an effect beyond their outputs (random generators, nodes with
// subgraphs, nodes marked cannot-be-deleted): never removed, merged or folded.
bool HasSideEffects(const Node& n);

// Data, NetOutput and Const: the nodes that run no kernel.
bool IsStructural(const Node& n);

// Ops whose output shapes only the computation knows (OpDef::computed_shape).
bool HasComputedShape(const Node& n);

// The fold limit of the context (the CompileOptions default without options).
int64_t FoldLimitBytes(const PassContext& ctx);

// Writes NetOutput's "output_names" from the current producers where it is
// missing, so a later rewire of a NetOutput input keeps the model's output
// names (DescribeModelIo falls back to the producer's name otherwise).
void PinOutputNames(Graph& g);

// Whether every consumer of `from` may be moved to `to` without giving the
// model an output that is its input (a Data endpoint feeding NetOutput) or
// the same tensor as two outputs: both need a copy the runtimes do not make
// for zero-copy IO.
bool CanRedirect(Endpoint from, Endpoint to);

// Moves every consumer of `from` to `to` (after PinOutputNames).
Status Redirect(Graph& g, Endpoint from, Endpoint to);

// Removes nodes during a pass and, at the end, the producers they left
// without any use (never Data, NetOutput or nodes with side effects), so a
// pass cleans up after itself even with dead_code_elimination off. Producers
// are remembered by id: a pass may remove them itself before the sweep.
class Remover {
 public:
  explicit Remover(Graph& g) : g_(g) {}
  void Remove(Node* n);
  // `n` may have lost its last use (a rewired input): checked at Sweep().
  void Orphaned(Node* n) { candidates_.push_back(n->id()); }
  // Returns the number of nodes removed in all.
  int Sweep();

 private:
  Graph& g_;
  std::vector<int64_t> candidates_;
  int removed_ = 0;
};

// A Const input's value, or nullptr when input i is absent or not a Const.
const Tensor* ConstInput(const Node& n, size_t i);

// Input i as int64 values: a Const input, else the attribute `attr` (the
// form of older opsets, e.g. Slice's starts before opset 10); nullopt when
// the input is computed. `absent` is set when neither is given.
std::optional<std::vector<int64_t>> ConstIntsOrAttr(const Node& n, size_t i, const std::string& attr, bool* absent);

// Adds a Const node holding `t` (a unique name derived from `base`).
Node* AddConst(Graph& g, const std::string& base, Tensor t);

// Replaces every output of `n` with a Const of the given value (one per
// output, the first named like `n`, so ge-dump --track follows it) and
// removes `n` through `remover`. The caller checked CanRedirect.
Status ReplaceWithConsts(Graph& g, Remover& remover, Node* n, std::vector<Tensor> values);

// Whether output i of `n` feeds NetOutput.
bool FeedsOutput(const Node& n);

// Computes the node with the kernels of `host` (a device whose memory the
// host reads) on the given input values; the outputs take the node's output
// descs, which must be static, or for ops whose output shapes only the
// computation knows (OpDef::computed_shape) the dims the kernel gives
// (hal::Kernel::OutputDims). A null entry is an absent optional input, or,
// for an input that is connected, one whose bytes the kernel never reads
// (Shape, Size): it gets scratch memory.
Result<std::vector<Tensor>> EvaluateOnHost(hal::Device& host, const Node& n, const std::vector<const Tensor*>& inputs);

}  // namespace ge::opt
