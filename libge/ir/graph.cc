#include "ge/ir/graph.h"

#include <algorithm>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ge {

// ---------------- Node ----------------

const AttrValue* Node::FindAttr(const std::string& k) const {
  auto it = attrs_.find(k);
  return it == attrs_.end() ? nullptr : &it->second;
}

int64_t Node::GetInt(const std::string& k, int64_t def) const {
  const AttrValue* v = FindAttr(k);
  if (!v) return def;
  if (auto* i = std::get_if<int64_t>(v)) return *i;
  if (auto* b = std::get_if<bool>(v)) return *b ? 1 : 0;
  return def;
}

float Node::GetFloat(const std::string& k, float def) const {
  const AttrValue* v = FindAttr(k);
  if (!v) return def;
  if (auto* f = std::get_if<float>(v)) return *f;
  if (auto* i = std::get_if<int64_t>(v)) return static_cast<float>(*i);
  return def;
}

bool Node::GetBool(const std::string& k, bool def) const {
  const AttrValue* v = FindAttr(k);
  if (!v) return def;
  if (auto* b = std::get_if<bool>(v)) return *b;
  if (auto* i = std::get_if<int64_t>(v)) return *i != 0;
  return def;
}

std::string Node::GetString(const std::string& k, const std::string& def) const {
  const AttrValue* v = FindAttr(k);
  if (auto* s = v ? std::get_if<std::string>(v) : nullptr) return *s;
  return def;
}

std::vector<int64_t> Node::GetInts(const std::string& k, const std::vector<int64_t>& def) const {
  const AttrValue* v = FindAttr(k);
  if (auto* s = v ? std::get_if<std::vector<int64_t>>(v) : nullptr) return *s;
  return def;
}

std::vector<float> Node::GetFloats(const std::string& k, const std::vector<float>& def) const {
  const AttrValue* v = FindAttr(k);
  if (auto* s = v ? std::get_if<std::vector<float>>(v) : nullptr) return *s;
  return def;
}

std::vector<std::string> Node::GetStrings(const std::string& k) const {
  const AttrValue* v = FindAttr(k);
  if (auto* s = v ? std::get_if<std::vector<std::string>>(v) : nullptr) return *s;
  return {};
}

const Tensor* Node::GetTensor(const std::string& k) const {
  const AttrValue* v = FindAttr(k);
  return v ? std::get_if<Tensor>(v) : nullptr;
}

std::shared_ptr<Graph> Node::GetGraph(const std::string& k) const {
  const AttrValue* v = FindAttr(k);
  auto* g = v ? std::get_if<std::shared_ptr<Graph>>(v) : nullptr;
  return g ? *g : nullptr;
}

void Node::SetNumInputs(size_t n) {
  if (n < in_edges_.size() && owner_) {
    for (size_t i = n; i < in_edges_.size(); ++i) owner_->RemoveInputEdge(this, static_cast<int>(i));
  }
  in_edges_.resize(n);
  input_descs_.resize(n);
}

void Node::SetNumOutputs(size_t n) {
  if (n < out_edges_.size() && owner_) {
    for (size_t i = n; i < out_edges_.size(); ++i) {
      auto consumers = out_edges_[i];
      for (const Endpoint& c : consumers) owner_->RemoveInputEdge(c.node, c.index);
    }
  }
  out_edges_.resize(n);
  output_descs_.resize(n);
}

const TensorDesc* Node::SourceDesc(size_t i) const {
  const Endpoint e = InputSource(i);
  return e.valid() ? &e.node->output_desc(e.index) : nullptr;
}

std::vector<Node*> Node::OutNodes() const {
  std::vector<Node*> out;
  // A linear search per consumer made a node read by k others cost k^2
  // (a model input feeding 100k nodes: minutes in every topological sort).
  std::unordered_set<const Node*> seen;
  for (const auto& consumers : out_edges_)
    for (const Endpoint& c : consumers)
      if (seen.insert(c.node).second) out.push_back(c.node);
  return out;
}

std::vector<Node*> Node::InNodes() const {
  std::vector<Node*> in;
  std::unordered_set<const Node*> seen;  // as in OutNodes: k inputs cost k, not k^2
  for (const Endpoint& e : in_edges_)
    if (e.node && seen.insert(e.node).second) in.push_back(e.node);
  return in;
}

// ---------------- Graph ----------------

Node* Graph::AddNode(const std::string& type, const std::string& name, size_t num_inputs, size_t num_outputs) {
  auto node = std::make_unique<Node>(next_id_++, type, name);
  node->owner_ = this;
  node->SetNumInputs(num_inputs);
  node->SetNumOutputs(num_outputs);
  Node* raw = node.get();
  nodes_.push_back(std::move(node));
  by_name_.emplace(name, raw);  // keeps the first on duplicates; the verifier reports them
  return raw;
}

Node* Graph::AddNodeCopy(const Node& src) {
  Node* n = AddNode(src.type_, src.name_, src.num_inputs(), src.num_outputs());
  n->attrs_ = src.attrs_;
  n->input_descs_ = src.input_descs_;
  n->output_descs_ = src.output_descs_;
  for (const auto& [k, sg] : src.subgraphs_) n->subgraphs_[k] = sg ? std::shared_ptr<Graph>(sg->Clone()) : nullptr;
  return n;
}

std::string Graph::MakeUniqueName(const std::string& base) const {
  if (!by_name_.count(base)) return base;
  for (int i = 1;; ++i) {
    std::string n = base + "_" + std::to_string(i);
    if (!by_name_.count(n)) return n;
  }
}

Status Graph::AddEdge(Node* src, int src_out, Node* dst, int dst_in) {
  if (!src || !dst || src->owner_ != this || dst->owner_ != this) return Internal("AddEdge: node not in graph " + name_);
  if (src_out < 0 || static_cast<size_t>(src_out) >= src->num_outputs())
    return Internal("AddEdge: " + src->Label() + " has no output " + std::to_string(src_out));
  if (dst_in < 0) return Internal("AddEdge: negative input index");
  if (static_cast<size_t>(dst_in) >= dst->num_inputs()) dst->SetNumInputs(dst_in + 1);
  if (dst->in_edges_[dst_in].valid())
    return Internal("AddEdge: input " + std::to_string(dst_in) + " of " + dst->Label() + " already connected");
  dst->in_edges_[dst_in] = Endpoint{src, src_out};
  src->out_edges_[src_out].push_back(Endpoint{dst, dst_in});
  dst->input_descs_[dst_in] = src->output_descs_[src_out];
  return Status::Ok();
}

void Graph::RemoveInputEdge(Node* dst, int dst_in) {
  if (!dst || dst_in < 0 || static_cast<size_t>(dst_in) >= dst->in_edges_.size()) return;
  Endpoint src = dst->in_edges_[dst_in];
  if (!src.valid()) return;
  auto& consumers = src.node->out_edges_[src.index];
  consumers.erase(std::remove(consumers.begin(), consumers.end(), Endpoint{dst, dst_in}), consumers.end());
  dst->in_edges_[dst_in] = Endpoint{};
}

void Graph::AddControlEdge(Node* src, Node* dst) {
  if (std::find(src->control_out_.begin(), src->control_out_.end(), dst) != src->control_out_.end()) return;
  src->control_out_.push_back(dst);
  dst->control_in_.push_back(src);
}

void Graph::RemoveControlEdge(Node* src, Node* dst) {
  src->control_out_.erase(std::remove(src->control_out_.begin(), src->control_out_.end(), dst), src->control_out_.end());
  dst->control_in_.erase(std::remove(dst->control_in_.begin(), dst->control_in_.end(), src), dst->control_in_.end());
}

Status Graph::ReplaceAllUses(Endpoint from, Endpoint to) {
  if (!from.valid() || !to.valid()) return Internal("ReplaceAllUses: invalid endpoint");
  auto consumers = from.node->out_edges_.at(from.index);
  for (const Endpoint& c : consumers) {
    RemoveInputEdge(c.node, c.index);
    GE_RETURN_IF_ERROR(AddEdge(to.node, to.index, c.node, c.index));
  }
  return Status::Ok();
}

void Graph::RemoveNode(Node* n) {
  if (!n || n->owner_ != this) return;
  for (size_t i = 0; i < n->in_edges_.size(); ++i) RemoveInputEdge(n, static_cast<int>(i));
  for (size_t i = 0; i < n->out_edges_.size(); ++i) {
    auto consumers = n->out_edges_[i];
    for (const Endpoint& c : consumers) RemoveInputEdge(c.node, c.index);
  }
  for (Node* c : std::vector<Node*>(n->control_in_)) RemoveControlEdge(c, n);
  for (Node* c : std::vector<Node*>(n->control_out_)) RemoveControlEdge(n, c);
  const std::string name = n->name();
  auto it = by_name_.find(name);
  if (it != by_name_.end() && it->second == n) by_name_.erase(it);
  nodes_.erase(std::remove_if(nodes_.begin(), nodes_.end(), [n](const auto& p) { return p.get() == n; }), nodes_.end());
  // Re-index a duplicate of the same name, if one exists.
  for (const auto& p : nodes_)
    if (p->name() == name && !by_name_.count(name)) by_name_.emplace(name, p.get());
}

Node* Graph::FindNode(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

std::vector<Node*> Graph::InputNodes() const {
  std::vector<Node*> in;
  for (const auto& n : nodes_)
    if (n->type() == op::kData) in.push_back(n.get());
  std::stable_sort(in.begin(), in.end(), [](Node* a, Node* b) { return a->GetInt("index") < b->GetInt("index"); });
  return in;
}

Node* Graph::OutputNode() const {
  for (const auto& n : nodes_)
    if (n->type() == op::kNetOutput) return n.get();
  return nullptr;
}

Result<std::vector<Node*>> Graph::TopologicalOrder() const {
  // Positions index plain vectors and the ready heap holds positions: with
  // tree maps keyed by pointer every pass paid O(n log^2 n) here.
  std::unordered_map<const Node*, size_t> position;
  position.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) position[nodes_[i].get()] = i;
  std::vector<size_t> pending(nodes_.size());
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;  // lowest position first
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node* n = nodes_[i].get();
    size_t deps = n->InNodes().size();
    for (Node* c : n->control_in_) {
      bool also_data = false;
      for (const Endpoint& e : n->in_edges_) also_data |= e.node == c;
      if (!also_data) ++deps;
    }
    pending[i] = deps;
    if (deps == 0) ready.push(i);
  }
  std::vector<Node*> order;
  order.reserve(nodes_.size());
  std::vector<size_t> succ;
  while (!ready.empty()) {
    Node* n = nodes_[ready.top()].get();
    ready.pop();
    order.push_back(n);
    succ.clear();
    auto add = [&](const Node* s) {
      if (auto it = position.find(s); it != position.end()) succ.push_back(it->second);
    };
    for (Node* s : n->OutNodes()) add(s);
    for (Node* s : n->control_out_) add(s);
    std::sort(succ.begin(), succ.end());
    succ.erase(std::unique(succ.begin(), succ.end()), succ.end());
    for (size_t s : succ)
      if (--pending[s] == 0) ready.push(s);
  }
  if (order.size() != nodes_.size()) {
    for (size_t i = 0; i < nodes_.size(); ++i)
      if (pending[i] != 0) return InvalidArgument("graph " + name_ + " has a cycle through node " + nodes_[i]->Label());
  }
  return order;
}

std::unique_ptr<Graph> Graph::Clone() const {
  auto g = std::make_unique<Graph>(name_);
  g->next_id_ = next_id_;
  std::map<const Node*, Node*> map;
  for (const auto& n : nodes_) {
    auto c = std::make_unique<Node>(n->id_, n->type_, n->name_);
    c->owner_ = g.get();
    c->attrs_ = n->attrs_;
    c->input_descs_ = n->input_descs_;
    c->output_descs_ = n->output_descs_;
    c->in_edges_.resize(n->in_edges_.size());
    c->out_edges_.resize(n->out_edges_.size());
    for (const auto& [k, sg] : n->subgraphs_) c->subgraphs_[k] = sg ? std::shared_ptr<Graph>(sg->Clone()) : nullptr;
    map[n.get()] = c.get();
    g->by_name_.emplace(c->name_, c.get());
    g->nodes_.push_back(std::move(c));
  }
  for (const auto& n : nodes_) {
    Node* c = map[n.get()];
    for (size_t i = 0; i < n->in_edges_.size(); ++i)
      if (n->in_edges_[i].valid()) c->in_edges_[i] = Endpoint{map[n->in_edges_[i].node], n->in_edges_[i].index};
    for (size_t i = 0; i < n->out_edges_.size(); ++i)
      for (const Endpoint& e : n->out_edges_[i]) c->out_edges_[i].push_back(Endpoint{map[e.node], e.index});
    for (Node* x : n->control_in_) c->control_in_.push_back(map[x]);
    for (Node* x : n->control_out_) c->control_out_.push_back(map[x]);
  }
  return g;
}

}  // namespace ge
