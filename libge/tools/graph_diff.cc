#include "ge/tools/graph_diff.h"

#include <algorithm>
#include <set>

#include "ge_base/sha256.h"

namespace ge::tools {

const std::string& DigestCache::Digest(const Tensor& t) {
  auto it = by_data_.find(t.data());
  if (it != by_data_.end() && it->second.first.size() == t.size()) return it->second.second;
  // 12 hex digits tell contents apart in a diff line without drowning it.
  std::string d = Sha256Hex(t.data(), t.size()).substr(0, 12);
  return by_data_.insert_or_assign(t.data(), std::make_pair(t, std::move(d))).first->second.second;
}

namespace {

// The nodes of g into s, named with `prefix`; the nodes of every subgraph
// follow their owner, named "owner/subgraph/node" (their inputs likewise), so
// a diff follows a node into a loop body or a partition.
void AddNodes(const Graph& g, const std::string& prefix, DigestCache& digests, GraphSnapshot& s) {
  auto order = g.TopologicalOrder();
  for (const Node* n : order.ok() ? order.value() : g.nodes()) {
    NodeSnapshot ns;
    ns.type = n->type();
    for (const auto& [k, v] : n->attrs()) {
      ns.attrs[k] = AttrToString(v);
      if (const Tensor* t = std::get_if<Tensor>(&v)) ns.attrs[k] += "#" + digests.Digest(*t);
    }
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      Endpoint e = n->InputSource(i);
      ns.inputs.push_back(e.valid() ? prefix + e.node->name() + ":" + std::to_string(e.index) : "_");
    }
    for (const Node* c : n->control_inputs()) ns.control_inputs.push_back(prefix + c->name());
    for (size_t i = 0; i < n->num_outputs(); ++i) ns.outputs.push_back(n->output_desc(i).ToString());
    const std::string name = prefix + n->name();
    s.order.push_back(name);
    s.nodes.emplace(name, std::move(ns));
    for (const auto& [sub_name, sub] : n->subgraphs())
      if (sub) AddNodes(*sub, name + "/" + sub_name + "/", digests, s);
  }
}

}  // namespace

GraphSnapshot TakeSnapshot(const std::string& pass, const Graph& g, DigestCache* cache) {
  DigestCache local;
  GraphSnapshot s;
  s.pass = pass;
  AddNodes(g, "", cache ? *cache : local, s);
  return s;
}

namespace {

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return "(" + s + ")";
}

std::string Label(const std::string& name, const NodeSnapshot& n) { return name + " (" + n.type + ")"; }

// Lists whose elements are compared position by position, so the message
// names the anchor that moved rather than printing both lists.
void DiffList(const std::string& what, const std::vector<std::string>& a, const std::vector<std::string>& b,
              std::vector<std::string>& out) {
  if (a == b) return;
  if (a.size() != b.size()) {
    out.push_back(what + "s " + Join(a) + " -> " + Join(b));
    return;
  }
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) out.push_back(what + " " + std::to_string(i) + ": " + a[i] + " -> " + b[i]);
}

}  // namespace

std::vector<std::string> DiffNode(const NodeSnapshot& a, const NodeSnapshot& b) {
  std::vector<std::string> out;
  if (a.type != b.type) out.push_back("type " + a.type + " -> " + b.type);
  std::set<std::string> keys;
  for (const auto& [k, v] : a.attrs) keys.insert(k);
  for (const auto& [k, v] : b.attrs) keys.insert(k);
  for (const auto& k : keys) {
    auto ia = a.attrs.find(k), ib = b.attrs.find(k);
    if (ia == a.attrs.end()) out.push_back("attr " + k + " added: " + ib->second);
    else if (ib == b.attrs.end()) out.push_back("attr " + k + " removed (was " + ia->second + ")");
    else if (ia->second != ib->second) out.push_back("attr " + k + ": " + ia->second + " -> " + ib->second);
  }
  DiffList("input", a.inputs, b.inputs, out);
  if (a.control_inputs != b.control_inputs)
    out.push_back("control inputs " + Join(a.control_inputs) + " -> " + Join(b.control_inputs));
  DiffList("output", a.outputs, b.outputs, out);
  return out;
}

PassDiff DiffSnapshots(const GraphSnapshot& before, const GraphSnapshot& after) {
  PassDiff d;
  d.pass = after.pass;
  for (const auto& name : before.order)
    if (!after.nodes.count(name)) d.removed.push_back(Label(name, before.nodes.at(name)));
  for (const auto& name : after.order) {
    const NodeSnapshot& b = after.nodes.at(name);
    auto it = before.nodes.find(name);
    if (it == before.nodes.end()) {
      d.added.push_back(Label(name, b));
      continue;
    }
    std::vector<std::string> details = DiffNode(it->second, b);
    if (!details.empty()) d.changed.push_back({name, b.type, std::move(details)});
  }
  return d;
}

const char* TrackStateName(TrackStep::State s) {
  switch (s) {
    case TrackStep::State::kPresent: return "unchanged";
    case TrackStep::State::kChanged: return "changed";
    case TrackStep::State::kRemoved: return "removed";
    case TrackStep::State::kAbsent: return "absent";
    case TrackStep::State::kAdded: return "added";
  }
  return "?";
}

namespace {

std::string SourceNode(const std::string& input) {
  const size_t colon = input.rfind(':');
  return colon == std::string::npos ? input : input.substr(0, colon);
}

// Who took a removed node's place; a guess, and it says so. The first of
// these that names anyone wins:
//  1. the nodes that now feed its former consumers in the anchors it fed
//     (a Conv after its Relu became a post-op); when those consumers went
//     too, their consumers, one level down (Add and Relu both fused into a
//     Conv);
//  2. surviving nodes, other than its consumers, that newly read one of its
//     former inputs (the Conv that took the residual Add's operand);
//  3. its producers that changed in the same pass (absorbed it);
//  4. new nodes named after it (passes derive names with MakeUniqueName).
std::vector<std::string> GuessReplacement(const GraphSnapshot& before, const GraphSnapshot& after,
                                          const std::string& node) {
  std::vector<std::string> out;
  auto add = [&](const std::string& name) {
    auto it = after.nodes.find(name);
    if (it == after.nodes.end() || name == node) return;
    const std::string label = Label(name, it->second);
    if (std::find(out.begin(), out.end(), label) == out.end()) out.push_back(label);
  };
  auto consumers_of = [&](const std::string& gone) {
    std::vector<std::string> c;
    for (const auto& name : before.order)
      for (const auto& in : before.nodes.at(name).inputs)
        if (SourceNode(in) == gone) {
          c.push_back(name);
          break;
        }
    return c;
  };
  // Adds the new sources of `consumer`'s anchors that read `gone`; returns
  // false when the consumer was removed too.
  auto rewired = [&](const std::string& consumer, const std::string& gone) {
    auto now = after.nodes.find(consumer);
    if (now == after.nodes.end()) return false;
    const auto& was = before.nodes.at(consumer).inputs;
    for (size_t i = 0; i < was.size() && i < now->second.inputs.size(); ++i)
      if (SourceNode(was[i]) == gone && was[i] != now->second.inputs[i] && now->second.inputs[i] != "_")
        add(SourceNode(now->second.inputs[i]));
    return true;
  };
  const std::vector<std::string> consumers = consumers_of(node);
  std::vector<std::string> removed_consumers;
  for (const auto& c : consumers)
    if (!rewired(c, node)) removed_consumers.push_back(c);
  if (out.empty())
    for (const auto& rc : removed_consumers)
      for (const auto& c2 : consumers_of(rc)) rewired(c2, rc);
  if (!out.empty()) return out;

  const NodeSnapshot& was = before.nodes.at(node);
  for (const auto& in : was.inputs) {
    if (in == "_") continue;
    for (const auto& name : after.order) {
      auto old = before.nodes.find(name);
      if (old == before.nodes.end() || std::find(consumers.begin(), consumers.end(), name) != consumers.end()) continue;
      const auto& now_in = after.nodes.at(name).inputs;
      if (std::find(now_in.begin(), now_in.end(), in) != now_in.end() &&
          std::find(old->second.inputs.begin(), old->second.inputs.end(), in) == old->second.inputs.end())
        add(name);
    }
  }
  if (!out.empty()) return out;
  for (const auto& in : was.inputs) {
    const std::string producer = SourceNode(in);
    auto old = before.nodes.find(producer), now = after.nodes.find(producer);
    if (old != before.nodes.end() && now != after.nodes.end() && !DiffNode(old->second, now->second).empty())
      add(producer);
  }
  if (!out.empty()) return out;
  for (const auto& name : after.order)
    if (!before.nodes.count(name) && name.size() > node.size() && name.compare(0, node.size(), node) == 0) add(name);
  return out;
}

}  // namespace

Result<std::vector<TrackStep>> TrackNode(const std::vector<GraphSnapshot>& snapshots, const std::string& node) {
  bool seen = false;
  for (const auto& s : snapshots) seen |= s.nodes.count(node) != 0;
  if (!seen) {
    std::string hint;
    if (!snapshots.empty()) {
      // Name a few nodes that share a prefix, the likeliest typo fix.
      for (const auto& name : snapshots.front().order)
        if (name.compare(0, std::min<size_t>(3, node.size()), node.substr(0, std::min<size_t>(3, node.size()))) == 0 &&
            std::count(hint.begin(), hint.end(), ',') < 4)
          hint += (hint.empty() ? "" : ", ") + name;
    }
    return NotFound("--track: no node named '" + node + "' in any pass" +
                    (hint.empty() ? "" : " (similar: " + hint + ")"));
  }
  std::vector<TrackStep> steps;
  const GraphSnapshot* prev = nullptr;
  for (const auto& s : snapshots) {
    TrackStep t;
    t.pass = s.pass;
    auto it = s.nodes.find(node);
    const bool was = prev && prev->nodes.count(node);
    if (it != s.nodes.end()) {
      if (!prev) t.state = TrackStep::State::kPresent;
      else if (!was) {
        t.state = TrackStep::State::kAdded;
        t.details.push_back("type " + it->second.type);
      } else {
        t.details = DiffNode(prev->nodes.at(node), it->second);
        t.state = t.details.empty() ? TrackStep::State::kPresent : TrackStep::State::kChanged;
      }
    } else if (was) {
      t.state = TrackStep::State::kRemoved;
      t.replaced_by = GuessReplacement(*prev, s, node);
    } else {
      t.state = TrackStep::State::kAbsent;
    }
    steps.push_back(std::move(t));
    prev = &s;
  }
  return steps;
}

}  // namespace ge::tools
