// TF functions as the parser converts them. A FunctionDef of the graph's
// library (TF 2: the branches of If, the cond and body of While, the callee of
// PartitionedCall) and the functions made from TF 1.x control flow
// (tf_functionalize.h) share one form: a GraphDef body whose inputs are nodes
// of op "_Arg" (attr "index") and whose results are GraphDef references, so
// one TfGraphBuilder converts either into an IR subgraph.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/ir/graph.h"
#include "tf_graph.pb.h"
#include "tf_graph_index.h"

namespace ge::tf_parser {

struct TfFunction {
  std::string name;
  tf::GraphDef body;
  std::vector<std::string> args;  // _Arg node names, by index
  std::vector<TfInputRef> rets;   // results, by output index
};

// Element `k` of output argument `arg` of node n as a GraphDef output index
// (function bodies write "node:arg:k"). Ops with one output argument (most,
// lists included) need no table; the few with several are listed.
// `library` resolves calls of library functions (their signature's order).
Result<int> FlatOutputIndex(const tf::NodeDef& n, const std::string& arg, int k,
                            const tf::FunctionDefLibrary* library);

class TfLibrary {
 public:
  explicit TfLibrary(const tf::FunctionDefLibrary* defs = nullptr);

  bool Has(const std::string& name) const;
  // The function `name`, its FunctionDef converted on first use. Errors name
  // the function.
  Result<const TfFunction*> Find(const std::string& name);
  // Adds a function the parser made; returns its name (`base` made unique).
  std::string Add(TfFunction f, const std::string& base);

 private:
  const tf::FunctionDefLibrary* defs_;
  std::map<std::string, const tf::FunctionDef*> by_name_;
  std::map<std::string, std::unique_ptr<TfFunction>> converted_;
};

// A FunctionDef's body in GraphDef form: "_Arg" nodes for the signature's
// inputs, "node:out_arg:k" references rewritten to "node:flat_index".
Result<TfFunction> ConvertFunctionDef(const tf::FunctionDef& f, const tf::FunctionDefLibrary* library);

}  // namespace ge::tf_parser
