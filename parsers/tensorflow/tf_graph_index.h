// A GraphDef indexed by node name, with its input strings parsed ("a",
// "a:k", "^a"), the graph outputs chosen (--out_nodes, or every node nothing
// consumes) and the nodes they depend on put in a deterministic topological
// order. GraphDef order is not topological in general; this is.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "ge_base/status.h"
#include "tf_graph.pb.h"

namespace ge::tf_parser {

// One NodeDef input: output `index` of node `node`, or a control input.
struct TfInputRef {
  std::string node;
  int index = 0;
  bool control = false;
};

// "^name" (control), "name" (output 0), "name:k". Anything else is InvalidArgument.
Result<TfInputRef> ParseInputRef(const std::string& s);

class TfGraphIndex {
 public:
  // Fails on unnamed or duplicate nodes, malformed inputs and inputs that
  // name no node of the graph; errors name the node.
  static Result<TfGraphIndex> Build(const tf::GraphDef& graph);

  const tf::NodeDef* Find(const std::string& name) const;
  const std::vector<TfInputRef>& Inputs(const tf::NodeDef& n) const;
  int Position(const tf::NodeDef& n) const { return by_name_.at(n.name()); }

  // The graph outputs: `out_nodes` entries ("name" for output 0, or
  // "name:k"), or else output 0 of every node no other node consumes (by
  // data or control), except Const, Placeholder and NoOp.
  Result<std::vector<TfInputRef>> Outputs(const std::vector<std::string>& out_nodes) const;
  // The nodes `outputs` depend on (by data or control), in GraphDef order.
  std::vector<const tf::NodeDef*> DependenciesOf(const std::vector<TfInputRef>& outputs) const;
  // `nodes` (closed under inputs) ordered so every node follows its inputs;
  // ties keep GraphDef order. A cycle (TF while loops) is Unsupported.
  Result<std::vector<const tf::NodeDef*>> TopologicalOrder(const std::vector<const tf::NodeDef*>& nodes) const;

 private:
  const tf::GraphDef* graph_ = nullptr;
  std::unordered_map<std::string, int> by_name_;
  std::vector<std::vector<TfInputRef>> inputs_;  // by node position
};

}  // namespace ge::tf_parser
