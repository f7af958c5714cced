// Helpers shared by the fusion passes (fusion_*_pass.cc): reading constant
// operands, checking that an intermediate result has no other consumer,
// creating constants and asking the backend whether a fused node runs.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pass.h"
#include "ge/ir/graph.h"
#include "ge/ir/tensor.h"
#include "hal/kernel.h"

namespace ge::fusion {

// The value of a Const node, or nullptr for any other node.
const Tensor* ConstOf(const Node* n);
// The constant value feeding input i of n, or nullptr.
const Tensor* ConstInput(const Node& n, size_t i);
// A single-element float constant on input i (any rank whose dims are all 1).
std::optional<double> ScalarInput(const Node& n, size_t i);
// v is present and within 1e-4 (relative) of want: the constants of a
// decomposed activation, as exporters write them.
bool Near(std::optional<double> v, double want);
// The f32 values of a constant, as double (empty when not f32).
std::vector<double> F32Values(const Tensor& t);
bool IsF32(const TensorDesc& d);
// Every element of v is x (true for an empty v: an absent attribute).
bool AllEqual(const std::vector<int64_t>& v, int64_t x);

// Output 0 feeds exactly one data consumer and n has no other used output
// and no control edges: it may disappear inside a fused node.
bool SingleUse(const Node& n);
// The one consumer of output 0 (nullptr unless SingleUse).
Node* SoleConsumer(const Node& n);
// For a binary node, the input index that is not `i` (0 <-> 1).
inline size_t Other(size_t i) { return i == 0 ? 1 : 0; }
// The input index of `bin` fed by output 0 of `producer` (-1: none, or both).
int InputIndexOf(const Node& bin, const Node& producer);
// No control edges in or out.
bool NoControl(const Node& n);

// True when `target` is reached from `start` following data and control
// inputs backwards (start depends on target). Used to keep fusions acyclic.
bool DependsOn(const Node* start, const Node* target);

// A new Const node holding `value` (name made unique from `base`).
Node* AddConst(Graph& g, const std::string& base, Tensor value);
// An f32 constant of the given dims from double values.
Tensor MakeF32(std::vector<int64_t> dims, const std::vector<double>& values);

// Moves every consumer of `from` output 0 to `to` output 0, keeping the
// model's output names (NetOutput "output_names" is filled in first).
Status Redirect(Graph& g, Node* from, Node* to);
// Removes nodes whose outputs nobody consumes (pattern leftovers and the
// constants only they used), never Data/NetOutput.
void RemoveIfUnused(Graph& g, const std::vector<Node*>& nodes);

// The backend can run `n` as it is now / the node a spec describes. Passes
// build the fused node's spec first and rewrite only when it is supported.
bool Supported(const PassContext& ctx, const Node& n);
bool Supported(const PassContext& ctx, hal::KernelSpec spec);
// The last step of most fusions: `fused` (inputs wired, no consumer yet)
// replaces `last` when the backend supports it; then `pattern` (the nodes
// it stands for) goes where nothing else uses it. Unsupported, `fused` is
// removed again and the graph is as before. Returns whether it fused.
Result<bool> ReplaceIfSupported(Graph& g, const PassContext& ctx, Node* fused, Node* last,
                                const std::vector<Node*>& pattern);
// The fused activation attributes (hal/fused_attrs.h) that stand for the
// activation node `act` (Clip bounds, HardSigmoid's alpha and beta read from
// it). Returns false when act is not a fusable activation.
bool ActivationAttrs(const Node& act, std::map<std::string, AttrValue>* attrs);
// n already ends with fused post-ops (a residual sum or an activation).
bool HasPostOps(const Node& n);

// Copies fused attributes onto a node / into a kernel spec.
void ApplyAttrs(const std::map<std::string, AttrValue>& attrs, Node* n);
void ApplyAttrs(const std::map<std::string, AttrValue>& attrs, hal::KernelSpec* spec);
// The shape/type of output 0 of a producer as a kernel input.
hal::TensorInfo InfoOf(const TensorDesc& d);

// Calls try_fuse(node) on every node, in id order, until a sweep where none
// fires. A firing match may delete nodes: the sweep goes on from the fired
// node's id in the graph as it is now (linear, not restarting per rewrite).
Status RunToFixpoint(Graph& g, const std::function<Result<bool>(Graph&, Node*)>& try_fuse);

// An inference-mode BatchNormalization with constant parameters, as the
// per-channel affine map y = x * mul[c] + add[c] (computed in double).
// nullopt when training_mode is set, an extra output (mean/var) is used,
// a parameter is not an f32 constant, or the channel counts differ.
struct BnFactors {
  std::vector<double> mul, add;
};
std::optional<BnFactors> ReadInferenceBn(const Node& bn);
// The end of a BatchNormalization fold into `op` (Conv, Gemm): inputs 1
// and 2 become new constants named op_bn_<suffix>, bn's consumers move to
// op, and bn and the replaced constants go when nothing else reads them.
Status ReplaceWithFoldedBn(Graph& g, Node* op, Node* bn, const std::string& suffix1, Tensor v1,
                           const std::string& suffix2, Tensor v2);

// Folds y = x * mul[c] + add[c] (per output channel c), applied by `after`
// to the result of `conv`, into conv's weights and bias (a conv without bias
// gets one). Returns false, changing nothing, unless conv is a Conv without
// fused post-ops, with constant f32 weights (and bias), whose sole consumer
// is `after`, and the backend runs the folded conv.
Result<bool> FoldAffineIntoConv(Graph& g, Node* conv, Node* after, const BnFactors& f, const PassContext& ctx);

// Disconnects input i of n and connects src output 0 there instead.
Status SetInput(Graph& g, Node* n, size_t i, Node* src, int src_out = 0);

}  // namespace ge::fusion
