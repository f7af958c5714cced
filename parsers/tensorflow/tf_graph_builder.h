// Builds the IR from a GraphDef in topological order, one TF node at a time,
// through the op mappers (tf_op_mappers.h). It owns what the mappers share:
// the TF tensor → IR value table, naming, constants, shape inference of every
// IR node as it is created (so mappers see shapes: SAME padding, ranks), and
// the layout bookkeeping: each 4-D value is held either in TF's logical
// layout or physically as NCHW (TfValue::nchw), with the converting
// Transposes made once per value and cancelled against each other.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ge/ir/graph.h"
#include "ge_parsers/onnx_parser.h"
#include "tf_graph_index.h"

namespace ge::tf_parser {

// One TF tensor as the IR holds it. nchw: a 4-D value TF sees as NHWC,
// held physically as NCHW.
struct TfValue {
  Endpoint ep;
  bool nchw = false;
};

struct TfScope;  // tf_control_flow.h: the function library and TensorArray state

class TfGraphBuilder {
 public:
  TfGraphBuilder(const TfGraphIndex& index, const ParseOptions& options, TfScope* scope = nullptr);

  // Converts `order` (topological, closed under inputs) and adds the
  // NetOutput for `outputs`.
  Result<std::unique_ptr<Graph>> Build(const std::vector<const tf::NodeDef*>& order,
                                       const std::vector<TfInputRef>& outputs);

  // ---- for the mappers ----
  Graph& graph() { return *graph_; }
  const ParseOptions& options() const { return options_; }
  TfScope* scope() const { return scope_; }
  // The value of a TF output converted so far, or nullptr.
  const TfValue* Value(const TfInputRef& r) const;
  // The next Data index (Placeholders in GraphDef order).
  int64_t TakeInputIndex() { return next_input_index_++; }

  int NumDataInputs(const tf::NodeDef& n) const;
  bool HasControlInputs(const tf::NodeDef& n) const;
  // Data input i of n, as converted so far.
  Result<TfValue> Input(const tf::NodeDef& n, int i) const;
  // The value of TF output k of n.
  void Define(const tf::NodeDef& n, int k, TfValue v);

  // Adds an IR node fed by `inputs` and infers its outputs. suffix "" names
  // it after the TF node (the node that produces n's result); other nodes
  // are named "<tf name>/<suffix>". Errors name the TF node.
  Result<Node*> Add(const tf::NodeDef& n, const std::string& type, const std::vector<Endpoint>& inputs,
                    std::map<std::string, AttrValue> attrs = {}, const std::string& suffix = "",
                    size_t num_outputs = 1, std::map<std::string, std::shared_ptr<Graph>> subgraphs = {});
  // Counts a node made outside Add (an inlined function's) as made for the
  // TF node being converted.
  void Adopt(Node* node) { created_.push_back(node); }
  Endpoint AddConst(const tf::NodeDef& n, const std::string& suffix, Tensor value);
  // A 1-D int64 constant (shape, axes, pads, starts...), or a scalar.
  Endpoint AddInt64s(const tf::NodeDef& n, const std::string& suffix, const std::vector<int64_t>& values,
                     bool scalar = false);

  // The constant behind an endpoint, or nullptr.
  const Tensor* ConstValue(Endpoint ep) const;
  const Tensor* ConstValue(const TfValue& v) const { return v.nchw ? nullptr : ConstValue(v.ep); }
  const TensorDesc& Desc(Endpoint ep) const { return ep.node->output_desc(static_cast<size_t>(ep.index)); }
  // TF's view of a value's dims ({-2} when unknown).
  std::vector<int64_t> LogicalDims(const TfValue& v) const;
  int64_t LogicalRank(const TfValue& v) const;

  // The value in TF's layout: a NCHW-held value gets one Transpose back to
  // NHWC (shared by every consumer that needs it).
  Result<Endpoint> Logical(const TfValue& v);
  // A 4-D value in TF's NHWC view, held as NCHW: one Transpose (or, for a
  // constant, transposed bytes) unless it already is.
  Result<Endpoint> Nchw(const TfValue& v);
  // Makes `v` (TF rank <= 4) usable next to a NCHW-held 4-D operand of an
  // elementwise op: NHWC broadcasting turned into the NCHW equivalent.
  // CanBroadcastNchw says whether that is possible (known rank <= 4, and
  // known dims unless 4-D or constant).
  bool CanBroadcastNchw(const TfValue& v) const;
  Result<Endpoint> BroadcastableNchw(const tf::NodeDef& n, const TfValue& v);

  // Whether a name is free among the IR nodes and the TF node names.
  std::string UniqueName(const std::string& base) const;

 private:
  using Key = std::pair<const Node*, int>;
  static Key KeyOf(Endpoint ep) { return {ep.node, ep.index}; }
  Result<Endpoint> AddTranspose(Endpoint src, const std::vector<int64_t>& perm, const std::string& suffix);
  Status ConvertNode(const tf::NodeDef& n);
  Status AddNetOutput(const std::vector<TfInputRef>& outputs);
  void RemoveUnusedConsts();

  const TfGraphIndex& index_;
  const ParseOptions& options_;
  TfScope* scope_;
  std::unique_ptr<Graph> graph_;
  std::set<std::string> tf_names_;  // every TF node's name, reserved
  std::unordered_map<std::string, std::vector<std::optional<TfValue>>> values_;
  std::unordered_map<std::string, std::vector<Node*>> control_sources_;  // TF node -> IR nodes to wait for
  std::map<Key, Endpoint> to_nchw_;  // logical endpoint -> its NCHW-held twin
  std::map<Key, Endpoint> to_nhwc_;  // NCHW-held endpoint -> its logical twin
  std::vector<Node*> created_;       // IR nodes made for the TF node being converted
  int64_t next_input_index_ = 0;
};

}  // namespace ge::tf_parser
