// TensorFlow control flow → the IR's If and Loop (docs/tensorflow.md,
// "Control flow"). TF 1.x Switch/Merge/Enter/Exit graphs are first rewritten
// into TF 2's functional If/While (tf_functionalize.h); the mappers here
// convert those, and PartitionedCall, with the functions of the library:
//   If, StatelessIf        → If, each branch an IR subgraph taking the inputs
//                            as captures;
//   While, StatelessWhile  → the cond inlined on the initial values, then
//                            Loop(-, cond, carried..., captures...) whose body
//                            computes the next values and the cond on them;
//                            variables the body returns unchanged are captures;
//   PartitionedCall, StatefulPartitionedCall, a call of a library function
//                          → the function inlined;
//   TensorArrayV3 and its Scatter/Read/Write/Gather/Size as dynamic_rnn writes
//                            them (tf_tensor_array.cc): a scattered input read
//                            by index, written once per step and gathered
//                            after the loop (a Loop scan output).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tf_function.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

bool IsControlFlowOp(const std::string& op);  // Enter, Exit, Switch, Merge, NextIteration, LoopCond

// What the parser knows of a TensorArray value (its handle or flow). Such a
// value is a placeholder scalar in the IR; the array's contents are a tensor
// stacked along axis 0.
enum class TaKind {
  kHandle,       // the array's handle: carries nothing
  kEmpty,        // the flow of a new array
  kContent,      // the flow of an array whose rows are `content`
  kAccumulator,  // in a loop body: the flow of the array written once per step
  kWritten,      // ... after the write of `content` (this step's row) at `index`
};
struct TaState {
  TaKind kind = TaKind::kHandle;
  Endpoint content, index;
  std::string origin;  // the TF node that made the value, for messages
  Endpoint size;       // TensorArrayV3's size, where known (in the graph that made the array)
};

// What a function argument is bound to when its body is converted.
struct TfArgBinding {
  TensorDesc desc;
  std::optional<TaState> ta;
  std::string captured;  // the outer value, for the Data node's "_captured"
};

// Shared by the builders of the main graph and of the function bodies in it.
struct TfScope {
  TfLibrary* library = nullptr;
  std::vector<std::string> stack;   // functions being converted, outermost first
  std::vector<TfArgBinding> args;   // a body's _Arg bindings
  std::map<std::pair<const Node*, int>, TaState> tensor_arrays;

  const TaState* FindTa(Endpoint ep) const;
};

void AddControlFlowMappers(OpMapperTable& t);
void AddTensorArrayMappers(OpMapperTable& t);  // tf_tensor_array.cc
// A node whose op is a function of the library: the function inlined.
Status MapFunctionCall(const tf::NodeDef& n, TfGraphBuilder& b);

// A placeholder value standing for a TensorArray handle or flow.
TfValue AddTaValue(const tf::NodeDef& n, TfGraphBuilder& b, TaState state, const std::string& suffix);

}  // namespace ge::tf_parser
