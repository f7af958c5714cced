// The IR: a Graph owns Nodes; data edges go from an output anchor to input
// anchors, control edges separately. Graph inputs are `Data` nodes (attr
// "index"), outputs feed the single `NetOutput` node. One struct-like Node with
// typed attribute access, not a class per op.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ge/ir/attr_value.h"
#include "ge/ir/tensor_desc.h"
#include "ge_base/status.h"

namespace ge {

class Node;
class Graph;

// Op types the IR itself knows about.
namespace op {
inline constexpr const char* kData = "Data";
inline constexpr const char* kNetOutput = "NetOutput";
inline constexpr const char* kConst = "Const";  // attr "value": Tensor
// A known-shape cluster of a dynamic model (the partitioner's): subgraph "f",
// compiled and planned like a static model.
inline constexpr const char* kPartitionedCall = "PartitionedCall";
// ATC's gears: subgraphs "gear0".."gearN-1", each a static model for one set
// of input dims; the runtime runs the gear whose input dims match the call's.
inline constexpr const char* kGearCase = "GearCase";
}  // namespace op

// One end of a data edge: output `index` of `node` (source side) or input
// `index` of `node` (destination side).
struct Endpoint {
  Node* node = nullptr;
  int index = -1;
  bool valid() const { return node != nullptr; }
  bool operator==(const Endpoint& o) const { return node == o.node && index == o.index; }
};

class Node {
 public:
  Node(int64_t id, std::string type, std::string name) : id_(id), type_(std::move(type)), name_(std::move(name)) {}

  int64_t id() const { return id_; }
  const std::string& type() const { return type_; }
  const std::string& name() const { return name_; }
  void set_type(std::string t) { type_ = std::move(t); }
  void set_name(std::string n) { name_ = std::move(n); }
  Graph* owner() const { return owner_; }
  // "conv1 (Conv)", the prefix of every message about this node.
  std::string Label() const { return name_ + " (" + type_ + ")"; }

  // --- attributes ---
  const std::map<std::string, AttrValue>& attrs() const { return attrs_; }
  bool HasAttr(const std::string& k) const { return attrs_.count(k) != 0; }
  void SetAttr(const std::string& k, AttrValue v) { attrs_[k] = std::move(v); }
  void RemoveAttr(const std::string& k) { attrs_.erase(k); }
  const AttrValue* FindAttr(const std::string& k) const;
  // Typed getters return the default when absent or of another type.
  int64_t GetInt(const std::string& k, int64_t def = 0) const;
  float GetFloat(const std::string& k, float def = 0.f) const;
  bool GetBool(const std::string& k, bool def = false) const;
  std::string GetString(const std::string& k, const std::string& def = "") const;
  std::vector<int64_t> GetInts(const std::string& k, const std::vector<int64_t>& def = {}) const;
  std::vector<float> GetFloats(const std::string& k, const std::vector<float>& def = {}) const;
  std::vector<std::string> GetStrings(const std::string& k) const;
  const Tensor* GetTensor(const std::string& k) const;
  std::shared_ptr<Graph> GetGraph(const std::string& k) const;

  // --- anchors ---
  size_t num_inputs() const { return in_edges_.size(); }
  size_t num_outputs() const { return output_descs_.size(); }
  // Grows or shrinks the anchor lists (new anchors are unconnected).
  void SetNumInputs(size_t n);
  void SetNumOutputs(size_t n);
  // Source of input i; invalid when the (optional) input is absent.
  Endpoint InputSource(size_t i) const { return i < in_edges_.size() ? in_edges_[i] : Endpoint{}; }
  Node* InputNode(size_t i) const { return InputSource(i).node; }
  bool HasInput(size_t i) const { return InputSource(i).valid(); }
  // What input i receives now: its producer's output desc (input_desc is a
  // copy taken when the edge was made); nullptr for an absent input.
  const TensorDesc* SourceDesc(size_t i) const;
  const std::vector<Endpoint>& OutputConsumers(size_t i) const { return out_edges_.at(i); }
  // Every consumer of every output, in anchor order.
  std::vector<Node*> OutNodes() const;
  std::vector<Node*> InNodes() const;  // data sources, in input order, deduplicated
  const std::vector<Node*>& control_inputs() const { return control_in_; }
  const std::vector<Node*>& control_outputs() const { return control_out_; }

  TensorDesc& input_desc(size_t i) { return input_descs_.at(i); }
  const TensorDesc& input_desc(size_t i) const { return input_descs_.at(i); }
  TensorDesc& output_desc(size_t i) { return output_descs_.at(i); }
  const TensorDesc& output_desc(size_t i) const { return output_descs_.at(i); }

  // Subgraphs of control-flow nodes (If/Loop/PartitionedCall), by name.
  std::map<std::string, std::shared_ptr<Graph>>& subgraphs() { return subgraphs_; }
  const std::map<std::string, std::shared_ptr<Graph>>& subgraphs() const { return subgraphs_; }

 private:
  friend class Graph;
  int64_t id_;
  std::string type_;
  std::string name_;
  Graph* owner_ = nullptr;
  std::map<std::string, AttrValue> attrs_;
  std::vector<Endpoint> in_edges_;
  std::vector<TensorDesc> input_descs_;
  std::vector<std::vector<Endpoint>> out_edges_;
  std::vector<TensorDesc> output_descs_;
  std::vector<Node*> control_in_;
  std::vector<Node*> control_out_;
  std::map<std::string, std::shared_ptr<Graph>> subgraphs_;
};

class Graph {
 public:
  explicit Graph(std::string name = "main") : name_(std::move(name)) {}
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }

  // Adds a node with the given anchor counts. Names must be unique (the
  // verifier checks); MakeUniqueName() helps passes that create nodes.
  Node* AddNode(const std::string& type, const std::string& name, size_t num_inputs = 0, size_t num_outputs = 1);
  std::string MakeUniqueName(const std::string& base) const;
  // Connects src output `src_out` to dst input `dst_in` (growing dst's input
  // list if needed). Fails if dst_in is already connected.
  Status AddEdge(Node* src, int src_out, Node* dst, int dst_in);
  // Disconnects dst input `dst_in` (no-op when unconnected).
  void RemoveInputEdge(Node* dst, int dst_in);
  void AddControlEdge(Node* src, Node* dst);
  void RemoveControlEdge(Node* src, Node* dst);
  // Moves every consumer of `from` to `to` (data edges only).
  Status ReplaceAllUses(Endpoint from, Endpoint to);
  // Disconnects and deletes the node. Pointers to it become invalid.
  void RemoveNode(Node* n);

  Node* FindNode(const std::string& name) const;
  // Nodes in insertion order.
  std::vector<Node*> nodes() const;
  size_t num_nodes() const { return nodes_.size(); }
  // Data nodes sorted by attr "index".
  std::vector<Node*> InputNodes() const;
  Node* OutputNode() const;  // the NetOutput, or nullptr

  // Kahn's order over data and control edges, ties broken by insertion
  // order, so the same graph always sorts the same way. Fails on a cycle.
  Result<std::vector<Node*>> TopologicalOrder() const;
  // Deep copy (constant bytes are shared).
  std::unique_ptr<Graph> Clone() const;
  // Adds a copy of `src` (from any graph): type, name, attributes, descs and
  // subgraphs (deep), with no edges.
  Node* AddNodeCopy(const Node& src);

 private:
  std::string name_;
  int64_t next_id_ = 0;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::map<std::string, Node*> by_name_;
};

}  // namespace ge
