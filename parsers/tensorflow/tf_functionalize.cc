#include "tf_functionalize.h"

#include <algorithm>
#include <array>
#include <optional>
#include <deque>
#include <functional>
#include <set>
#include <unordered_map>

#include "tf_attrs.h"
#include "tf_control_flow.h"

namespace ge::tf_parser {

namespace {

bool Is(const tf::NodeDef& n, const std::string& op) { return n.op() == op || n.op() == "Ref" + op; }

std::string RefString(const TfInputRef& r) {
  if (r.control) return "^" + r.node;
  return r.index == 0 ? r.node : r.node + ":" + std::to_string(r.index);
}
std::string Key(const TfInputRef& r) { return r.node + ":" + std::to_string(r.index); }

// The graph as the rewrite sees it, re-read after every change.
class FlowGraph {
 public:
  explicit FlowGraph(const tf::GraphDef& g) : g_(g) {}
  Status Index() {
    for (int i = 0; i < g_.node_size(); ++i) pos_[g_.node(i).name()] = i;
    ins_.resize(g_.node_size());
    consumers_.resize(g_.node_size());
    for (int i = 0; i < g_.node_size(); ++i)
      for (const std::string& s : g_.node(i).input()) {
        GE_ASSIGN_OR_RETURN(TfInputRef r, ParseInputRef(s));
        const int src = Find(r.node);
        if (src < 0) return NodeError(g_.node(i), "input '" + s + "' names no node of the graph");
        ins_[i].push_back(r);
        if (consumers_[src].empty() || consumers_[src].back() != i) consumers_[src].push_back(i);
      }
    return Status::Ok();
  }
  int size() const { return g_.node_size(); }
  const tf::NodeDef& node(int i) const { return g_.node(i); }
  int Find(const std::string& name) const {
    auto it = pos_.find(name);
    return it == pos_.end() ? -1 : it->second;
  }
  int Src(const TfInputRef& r) const { return Find(r.node); }
  const std::vector<TfInputRef>& ins(int i) const { return ins_[i]; }
  const std::vector<int>& consumers(int i) const { return consumers_[i]; }
  bool Is(int i, const std::string& op) const { return tf_parser::Is(g_.node(i), op); }
  // Data input k's source node, or -1.
  int DataSrc(int i, size_t k) const {
    return k < ins_[i].size() && !ins_[i][k].control ? Find(ins_[i][k].node) : -1;
  }
  bool IsLoopSwitch(int i) const {
    const int c = DataSrc(i, 1);
    return Is(i, "Switch") && c >= 0 && Is(c, "LoopCond");
  }
  bool IsCondSwitch(int i) const { return Is(i, "Switch") && !IsLoopSwitch(i); }
  bool IsLoopMerge(int i) const {
    if (!Is(i, "Merge")) return false;
    for (const TfInputRef& r : ins_[i])
      if (!r.control && (Is(Src(r), "Enter") || Is(Src(r), "NextIteration"))) return true;
    return false;
  }
  bool IsCondMerge(int i) const { return Is(i, "Merge") && !IsLoopMerge(i); }
  // A predicate through the Identity nodes TF puts on it (pred_id).
  std::string CanonicalPred(int sw) const {
    TfInputRef r = ins_[sw][1];
    for (int guard = 0; guard < 1000; ++guard) {
      const int s = Src(r);
      if (!(Is(s, "Identity") || Is(s, "Snapshot")) || ins_[s].empty() || ins_[s][0].control) break;
      r = ins_[s][0];
    }
    return RefString(r);
  }

 private:
  const tf::GraphDef& g_;
  std::unordered_map<std::string, int> pos_;
  std::vector<std::vector<TfInputRef>> ins_;
  std::vector<std::vector<int>> consumers_;
};

// ---- frames: which loop each node runs in ("" = none), as TF's executor assigns them ----

struct Frames {
  std::vector<std::string> of;
  std::map<std::string, std::string> parent;
  int Depth(const std::string& f) const {
    int d = 0;
    for (std::string x = f; !x.empty() && d < 1000; ++d) {
      auto it = parent.find(x);
      x = it == parent.end() ? "" : it->second;
    }
    return d;
  }
};

Result<Frames> ComputeFrames(const FlowGraph& fg) {
  Frames fr;
  fr.of.assign(fg.size(), "");
  std::vector<bool> set(fg.size(), false);
  std::deque<int> work;
  for (int i = 0; i < fg.size(); ++i)
    if (fg.ins(i).empty()) {
      set[i] = true;
      work.push_back(i);
    }
  size_t budget = 64 * static_cast<size_t>(fg.size()) + 64;
  while (!work.empty()) {
    if (budget-- == 0) return Unsupported("TF 1.x loop frames nest inconsistently (an Enter's frame inside itself)");
    const int u = work.front();
    work.pop_front();
    std::string out = fr.of[u];
    if (fg.Is(u, "Exit")) {
      if (out.empty()) return NodeError(fg.node(u), "is an Exit outside any loop (no Enter leads to it)");
      out = fr.parent[out];
    }
    for (int v : fg.consumers(u)) {
      std::string cand = out;
      if (fg.Is(v, "Enter")) {
        auto name = AttrString(fg.node(v), "frame_name", std::string());
        cand = name.ok() && !name->empty() ? *name : fg.node(v).name();
        if (cand == out) return NodeError(fg.node(v), "enters frame '" + cand + "' from inside it");
        if (!fr.parent.count(cand) || fr.Depth(out) > fr.Depth(fr.parent[cand])) fr.parent[cand] = out;
      }
      if (!set[v] || (cand != fr.of[v] && fr.Depth(cand) > fr.Depth(fr.of[v]))) {
        fr.of[v] = cand;
        set[v] = true;
        work.push_back(v);
      }
    }
  }
  for (int i = 0; i < fg.size(); ++i)
    if (!set[i]) return NodeError(fg.node(i), "lies on a cycle that no Enter leads into (a TF 1.x loop without its Enter)");
  return fr;
}

// ---- cond states: under which branches of which predicates a node runs ----

using CondState = std::map<std::string, int>;  // canonical predicate -> 0 (else) / 1 (then)

struct Conds {
  std::vector<CondState> state;
  std::vector<std::string> pred;  // of each cond Merge
};

Status Join(CondState& acc, const CondState& s, const tf::NodeDef& n) {
  for (const auto& [p, b] : s) {
    auto [it, fresh] = acc.emplace(p, b);
    if (!fresh && it->second != b)
      return NodeUnsupported(n, "reads both branches of the tf.cond on '" + p + "' (a value of each)");
  }
  return Status::Ok();
}

Result<Conds> ComputeConds(const FlowGraph& fg) {
  // A topological order without the NextIteration -> Merge back edges.
  std::vector<int> pending(fg.size(), 0);
  for (int i = 0; i < fg.size(); ++i)
    for (const TfInputRef& r : fg.ins(i)) pending[i] += fg.Is(fg.Src(r), "NextIteration") ? 0 : 1;
  std::deque<int> ready;
  for (int i = 0; i < fg.size(); ++i)
    if (pending[i] == 0) ready.push_back(i);
  std::vector<int> order;
  while (!ready.empty()) {
    const int u = ready.front();
    ready.pop_front();
    order.push_back(u);
    if (fg.Is(u, "NextIteration")) continue;
    for (int v : fg.consumers(u))
      for (const TfInputRef& r : fg.ins(v))
        if (fg.Src(r) == u && --pending[v] == 0) ready.push_back(v);
  }
  if (order.size() != static_cast<size_t>(fg.size()))
    for (int i = 0; i < fg.size(); ++i)
      if (pending[i] > 0) return NodeUnsupported(fg.node(i), "lies on a cycle that is not a TF 1.x while loop");

  Conds cs;
  cs.state.resize(fg.size());
  cs.pred.resize(fg.size());
  auto in_state = [&](const TfInputRef& r, CondState& s) -> Status {
    const int src = fg.Src(r);
    s = cs.state[src];
    if (!r.control && fg.IsCondSwitch(src)) {
      if (r.index > 1) return NodeError(fg.node(src), "has no output " + std::to_string(r.index));
      const std::string p = fg.CanonicalPred(src);
      auto [it, fresh] = s.emplace(p, r.index);
      if (!fresh && it->second != r.index)
        return NodeUnsupported(fg.node(src), "switches a value already in the other branch of the tf.cond on '" + p + "'");
    }
    return Status::Ok();
  };
  for (int i : order) {
    const tf::NodeDef& n = fg.node(i);
    CondState acc;
    if (fg.IsCondMerge(i)) {
      std::vector<CondState> ins;
      for (const TfInputRef& r : fg.ins(i))
        if (!r.control) GE_RETURN_IF_ERROR(in_state(r, ins.emplace_back()));
      if (ins.size() != 2) return NodeUnsupported(n, "merges " + std::to_string(ins.size()) + " values; a tf.cond merges 2");
      std::string p;
      for (const auto& [q, b] : ins[0]) {
        auto it = ins[1].find(q);
        if (it != ins[1].end() && it->second != b) {
          if (!p.empty()) p = "?";
          else p = q;
        }
      }
      if (p.empty() || p == "?")
        return NodeUnsupported(n, "does not merge the two branches of one tf.cond (no single Switch predicate "
                                  "separates its inputs)");
      ins[0].erase(p);
      ins[1].erase(p);
      if (ins[0] != ins[1])
        return NodeUnsupported(n, "merges branches of the tf.cond on '" + p + "' that run under different outer conds");
      cs.state[i] = ins[0];
      cs.pred[i] = p;
      continue;
    }
    for (const TfInputRef& r : fg.ins(i)) {
      if (fg.Is(fg.Src(r), "NextIteration")) continue;
      CondState s;
      GE_RETURN_IF_ERROR(in_state(r, s));
      GE_RETURN_IF_ERROR(Join(acc, s, n));
    }
    cs.state[i] = std::move(acc);
  }
  return cs;
}

// ---- building functions and rewriting the graph ----

// One function argument: the value outside (a GraphDef reference) and how
// the nodes inside name it.
struct Args {
  std::vector<std::string> outer, keys;  // by index
  std::map<std::string, int> by_key;     // "s:switch", "r:node:k", ...
  int Add(const std::string& key, const std::string& outer_ref) {
    auto [it, fresh] = by_key.emplace(key, static_cast<int>(outer.size()));
    if (fresh) {
      outer.push_back(outer_ref);
      keys.push_back(key);
    }
    return it->second;
  }
};

// A function whose body is `region` (copied from fg, positions ascending);
// `remap` gives a data reference to a node outside the region as an arg
// index. Control inputs from outside the region are dropped.
TfFunction MakeFunction(const FlowGraph& fg, const std::set<int>& region, int num_args,
                        const std::function<int(const TfInputRef&)>& remap, const std::vector<TfInputRef>& rets) {
  TfFunction f;
  std::set<std::string> names;
  for (int x : region) names.insert(fg.node(x).name());
  for (int k = 0; k < num_args; ++k) {
    std::string name = "_arg" + std::to_string(k);
    while (names.count(name)) name += "_";
    f.args.push_back(name);
    tf::NodeDef* a = f.body.add_node();
    a->set_name(name);
    a->set_op("_Arg");
    (*a->mutable_attr())["index"].set_i(k);
  }
  auto rewrite = [&](const TfInputRef& r) -> TfInputRef {
    if (region.count(fg.Src(r))) return r;
    return TfInputRef{f.args[static_cast<size_t>(remap(r))], 0, false};
  };
  for (int x : region) {
    tf::NodeDef* c = f.body.add_node();
    *c = fg.node(x);
    c->clear_input();
    for (const TfInputRef& r : fg.ins(x)) {
      if (r.control && !region.count(fg.Src(r))) continue;
      c->add_input(RefString(r.control ? r : rewrite(r)));
    }
  }
  for (const TfInputRef& r : rets) f.rets.push_back(rewrite(r));
  return f;
}

std::string UniqueNodeName(const FlowGraph& fg, const std::string& base) {
  std::string name = base;
  for (int k = 1; fg.Find(name) >= 0; ++k) name = base + "_" + std::to_string(k);
  return name;
}

// Rebuilds g without `removed`, with every surviving input passed through
// `remap` (which may fail naming the consumer), plus `added`.
Status Rewrite(tf::GraphDef& g, const FlowGraph& fg, const std::set<int>& removed,
               const std::function<Result<std::string>(int consumer, const TfInputRef&)>& remap,
               std::vector<tf::NodeDef> added) {
  tf::GraphDef out;
  for (int i = 0; i < fg.size(); ++i) {
    if (removed.count(i)) continue;
    tf::NodeDef* c = out.add_node();
    *c = fg.node(i);
    c->clear_input();
    std::vector<std::string> data, control;
    for (const TfInputRef& r : fg.ins(i)) {
      GE_ASSIGN_OR_RETURN(std::string s, remap(i, r));
      if (s.empty()) continue;
      (s[0] == '^' ? control : data).push_back(s);
    }
    for (const auto& s : data) c->add_input(s);
    std::set<std::string> seen;
    for (const auto& s : control)
      if (seen.insert(s).second) c->add_input(s);
  }
  for (auto& n : added) *out.add_node() = std::move(n);
  out.mutable_node()->Swap(g.mutable_node());
  return Status::Ok();
}

void SetFunc(tf::NodeDef& n, const std::string& attr, const std::string& name) {
  (*n.mutable_attr())[attr].mutable_func()->set_name(name);
}

struct Rewriter {
  tf::GraphDef& g;
  TfLibrary& library;
  std::vector<TfInputRef>& outputs;

  void Rename(const std::string& old_node, int old_index, const std::string& node, int index) {
    for (TfInputRef& o : outputs)
      if (o.node == old_node && o.index == old_index) o = TfInputRef{node, index, false};
  }
};

// ---- tf.cond → If ----

struct CondGroup {
  std::string pred;
  std::vector<int> merges;
  std::vector<std::array<TfInputRef, 2>> inputs;  // of each merge: else, then
  std::set<int> region[2];                        // else, then
  std::set<int> switches;
  Args args;
};

// The nodes of branch b that compute `start`, into g.region[b]; false when
// a node of another (unconverted) cond or loop is in the way.
Result<bool> CollectBranch(const FlowGraph& fg, const Conds& cs, const CondState& target, int b, const TfInputRef& start,
                           CondGroup& g) {
  std::vector<TfInputRef> stack = {start};
  while (!stack.empty()) {
    const TfInputRef r = stack.back();
    stack.pop_back();
    const int x = fg.Src(r);
    if (fg.IsCondSwitch(x) && fg.CanonicalPred(x) == g.pred) {
      if (r.control) continue;
      if (r.index != b)
        return NodeUnsupported(fg.node(x), "output " + std::to_string(r.index) + " is read in the other branch");
      g.switches.insert(x);
      g.args.Add("s:" + fg.node(x).name(), RefString(fg.ins(x)[0]));
      continue;
    }
    auto has = cs.state[x].find(g.pred);
    if (has == cs.state[x].end() || has->second != b) {
      if (!r.control) g.args.Add("r:" + Key(r), RefString(r));
      continue;
    }
    if (cs.state[x] != target || IsControlFlowOp(fg.node(x).op())) return false;
    if (!g.region[b].insert(x).second) continue;
    for (const TfInputRef& in : fg.ins(x)) stack.push_back(in);
  }
  return true;
}

// The cond of Merge m alone; nullopt when it is not innermost yet.
Result<std::optional<CondGroup>> CondOf(const FlowGraph& fg, const Conds& cs, int m) {
  CondGroup g;
  g.pred = cs.pred[m];
  g.merges = {m};
  std::array<TfInputRef, 2> sides;
  bool seen[2] = {false, false};
  for (const TfInputRef& r : fg.ins(m)) {
    if (r.control) continue;
    const int x = fg.Src(r);
    const CondState& s = cs.state[x];
    int b = s.count(g.pred) ? s.at(g.pred) : -1;
    if (fg.IsCondSwitch(x) && fg.CanonicalPred(x) == g.pred) b = r.index;
    if ((b != 0 && b != 1) || seen[b])
      return NodeUnsupported(fg.node(m), "does not take one value from each branch of the tf.cond on '" + g.pred + "'");
    seen[b] = true;
    sides[static_cast<size_t>(b)] = r;
    CondState target = cs.state[m];
    target[g.pred] = b;
    GE_ASSIGN_OR_RETURN(bool ok, CollectBranch(fg, cs, target, b, r, g));
    if (!ok) return std::optional<CondGroup>();
  }
  g.inputs = {sides};
  return std::optional<CondGroup>(std::move(g));
}

bool Meets(const std::set<int>& x, const std::set<int>& y) {
  for (int v : x)
    if (y.count(v)) return true;
  return false;
}

// The innermost cond whose branches hold no other control flow: its Merges
// (those sharing nodes) become one If.
Result<bool> TryCond(const FlowGraph& fg, const Conds& cs, Rewriter& rw) {
  std::vector<int> merges;
  for (int i = 0; i < fg.size(); ++i)
    if (fg.IsCondMerge(i)) merges.push_back(i);
  std::stable_sort(merges.begin(), merges.end(),
                   [&](int a, int b) { return cs.state[a].size() > cs.state[b].size(); });
  for (int m0 : merges) {
    GE_ASSIGN_OR_RETURN(auto first, CondOf(fg, cs, m0));
    if (!first) continue;
    CondGroup g = std::move(*first);
    const std::string p = g.pred;
    std::vector<CondGroup> others;
    for (int m : merges) {
      if (m == m0 || cs.pred[m] != p || cs.state[m] != cs.state[m0]) continue;
      GE_ASSIGN_OR_RETURN(auto one, CondOf(fg, cs, m));
      if (one) others.push_back(std::move(*one));
    }
    std::vector<bool> taken(others.size(), false);
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t a = 0; a < others.size(); ++a) {
        const CondGroup& o = others[a];
        if (taken[a] || !(Meets(o.region[0], g.region[0]) || Meets(o.region[1], g.region[1]) ||
                          Meets(o.switches, g.switches)))
          continue;
        taken[a] = grew = true;
        g.merges.push_back(o.merges[0]);
        g.inputs.push_back(o.inputs[0]);
        for (int b = 0; b < 2; ++b) g.region[b].insert(o.region[b].begin(), o.region[b].end());
        g.switches.insert(o.switches.begin(), o.switches.end());
        for (size_t k = 0; k < o.args.outer.size(); ++k) g.args.Add(o.args.keys[k], o.args.outer[k]);
      }
    }
    auto remap = [&](const TfInputRef& r) {
      const int x = fg.Src(r);
      if (fg.IsCondSwitch(x) && fg.CanonicalPred(x) == p) return g.args.by_key.at("s:" + fg.node(x).name());
      return g.args.by_key.at("r:" + Key(r));
    };
    const std::string& first_merge = fg.node(m0).name();
    const size_t slash = first_merge.rfind('/');
    const std::string if_name = UniqueNodeName(fg, (slash == std::string::npos ? "" : first_merge.substr(0, slash + 1)) + "If");
    std::string fn_names[2];
    for (int b = 0; b < 2; ++b) {
      std::vector<TfInputRef> rets;
      for (const auto& in : g.inputs) rets.push_back(in[static_cast<size_t>(b)]);
      fn_names[b] = rw.library.Add(MakeFunction(fg, g.region[b], static_cast<int>(g.args.outer.size()), remap, rets),
                                   if_name + (b ? "/then_branch" : "/else_branch"));
    }
    tf::NodeDef node;
    node.set_name(if_name);
    node.set_op("If");
    GE_ASSIGN_OR_RETURN(TfInputRef pred_ref, ParseInputRef(p));
    node.add_input(RefString(pred_ref));
    for (const std::string& s : g.args.outer) node.add_input(s);
    SetFunc(node, "then_branch", fn_names[1]);
    SetFunc(node, "else_branch", fn_names[0]);
    (*node.mutable_attr())["Tcond"].set_type(tf::DT_BOOL);

    std::set<int> removed(g.region[0].begin(), g.region[0].end());
    removed.insert(g.region[1].begin(), g.region[1].end());
    std::map<int, int> output_of;
    for (size_t j = 0; j < g.merges.size(); ++j) {
      removed.insert(g.merges[j]);
      output_of[g.merges[j]] = static_cast<int>(j);
    }
    auto remap_outer = [&](int consumer, const TfInputRef& r) -> Result<std::string> {
      const int x = fg.Src(r);
      if (!removed.count(x)) return RefString(r);
      if (r.control) return "^" + if_name;
      auto it = output_of.find(x);
      if (it == output_of.end())
        return NodeUnsupported(fg.node(consumer), "reads " + fg.node(x).name() +
                                                      ", which is inside a branch of the tf.cond merged by " + first_merge);
      if (r.index != 0)
        return NodeUnsupported(fg.node(consumer), "reads value_index of Merge " + fg.node(x).name() +
                                                      " (which branch ran), which ge does not compute");
      return RefString(TfInputRef{if_name, it->second, false});
    };
    for (size_t j = 0; j < g.merges.size(); ++j) rw.Rename(fg.node(g.merges[j]).name(), 0, if_name, static_cast<int>(j));
    GE_RETURN_IF_ERROR(Rewrite(rw.g, fg, removed, remap_outer, {node}));
    return true;
  }
  return false;
}

// ---- tf.while_loop → While ----

struct LoopVar {
  int enter = -1, merge = -1, sw = -1, next = -1;
};

// One tf.while_loop's frame taken apart: its nodes by role, and which loop
// variable each Merge, Switch and Exit belongs to.
struct WhileFrame {
  std::string frame, loop;  // the frame's name; "loop 'F'" for messages
  std::vector<int> nodes;
  int loop_cond = -1;
  std::vector<int> invariants, exits;
  std::vector<LoopVar> vars;
  std::map<int, int> var_of_merge, var_of_switch, exit_var;
};

// The frames no other frame nests in, in node order.
std::vector<std::string> InnermostLoopFrames(const FlowGraph& fg, const Frames& fr) {
  std::set<std::string> parents;
  for (const auto& [f, p] : fr.parent) parents.insert(p);
  std::vector<std::string> frames;
  for (int i = 0; i < fg.size(); ++i)
    if (!fr.of[i].empty() && !parents.count(fr.of[i]) &&
        std::find(frames.begin(), frames.end(), fr.of[i]) == frames.end())
      frames.push_back(fr.of[i]);
  return frames;
}

// The LoopCond, the Exits, the constant Enters (invariants) and one loop
// variable per other Enter, with the Merge it feeds.
Status FindLoopRoles(const FlowGraph& fg, const Frames& fr, WhileFrame& w) {
  for (int i : w.nodes) {
    if (fg.Is(i, "LoopCond")) {
      if (w.loop_cond >= 0) return NodeUnsupported(fg.node(i), "is a second LoopCond of " + w.loop);
      w.loop_cond = i;
    }
    if (fg.Is(i, "Exit")) w.exits.push_back(i);
    if (!fg.Is(i, "Enter") || fr.of[i] != w.frame) continue;
    GE_ASSIGN_OR_RETURN(bool constant, AttrBool(fg.node(i), "is_constant", false));
    if (constant) {
      w.invariants.push_back(i);
      continue;
    }
    LoopVar v;
    v.enter = i;
    for (int c : fg.consumers(i))
      if (fg.Is(c, "Merge") && fr.of[c] == w.frame) v.merge = c;
    if (v.merge < 0) return NodeError(fg.node(i), "is an Enter of " + w.loop + " that feeds no Merge");
    w.vars.push_back(v);
  }
  if (w.loop_cond < 0) return NodeError(fg.node(w.vars.empty() ? w.nodes[0] : w.vars[0].enter), w.loop + " has no LoopCond");
  if (w.vars.empty()) return NodeError(fg.node(w.loop_cond), w.loop + " has no loop variable (a non-constant Enter)");
  return Status::Ok();
}

// Each variable's NextIteration and Switch on the LoopCond.
Status LinkLoopVars(const FlowGraph& fg, WhileFrame& w) {
  for (size_t k = 0; k < w.vars.size(); ++k) {
    LoopVar& v = w.vars[k];
    for (const TfInputRef& r : fg.ins(v.merge))
      if (!r.control && fg.Is(fg.Src(r), "NextIteration")) v.next = fg.Src(r);
    if (v.next < 0) return NodeError(fg.node(v.merge), "is a Merge of " + w.loop + " without a NextIteration input");
    if (fg.ins(v.next).empty() || fg.ins(v.next)[0].control) return NodeError(fg.node(v.next), "has no data input");
    for (int c : fg.consumers(v.merge))
      if (fg.IsLoopSwitch(c) && fg.DataSrc(c, 0) == v.merge && fg.DataSrc(c, 1) == w.loop_cond) v.sw = c;
    if (v.sw < 0) return NodeError(fg.node(v.merge), "is a Merge of " + w.loop + " that feeds no Switch on its LoopCond");
    w.var_of_merge[v.merge] = static_cast<int>(k);
    w.var_of_switch[v.sw] = static_cast<int>(k);
  }
  return Status::Ok();
}

// Each Exit reads output 0 of a variable's Switch; no Merge or
// NextIteration is left over.
Status LinkLoopExits(const FlowGraph& fg, WhileFrame& w) {
  for (int x : w.exits) {
    const int s = fg.DataSrc(x, 0);
    if (s < 0 || !w.var_of_switch.count(s) || fg.ins(x)[0].index != 0)
      return NodeError(fg.node(x), "is an Exit of " + w.loop + " that does not read output 0 of one of its Switches");
    w.exit_var[x] = w.var_of_switch[s];
  }
  for (int i : w.nodes) {
    if (fg.Is(i, "Merge") && !w.var_of_merge.count(i))
      return NodeError(fg.node(i), "is a Merge of " + w.loop + " not fed by an Enter and a NextIteration");
    if (fg.Is(i, "NextIteration") && std::none_of(w.vars.begin(), w.vars.end(), [&](const LoopVar& v) { return v.next == i; }))
      return NodeError(fg.node(i), "is a NextIteration of " + w.loop + " that feeds none of its Merges");
  }
  return Status::Ok();
}

// The nodes of the frame that `start` depends on, into `region`; outer
// values read directly become arguments.
Status CollectLoopRegion(const FlowGraph& fg, const Frames& fr, const WhileFrame& w, const TfInputRef& start,
                         std::set<int>& region, Args& args) {
  std::vector<TfInputRef> stack = {start};
  while (!stack.empty()) {
    const TfInputRef r = stack.back();
    stack.pop_back();
    const int x = fg.Src(r);
    if (r.control) {
      if (fr.of[x] == w.frame && !IsControlFlowOp(fg.node(x).op()) && region.insert(x).second)
        for (const TfInputRef& in : fg.ins(x)) stack.push_back(in);
      continue;
    }
    if (w.var_of_merge.count(x) || (w.var_of_switch.count(x) && r.index == 1)) continue;
    if (w.var_of_switch.count(x)) return NodeUnsupported(fg.node(x), "output 0 (the loop's exit) is read inside " + w.loop);
    if (fg.Is(x, "Enter") && fr.of[x] == w.frame) continue;  // an invariant
    if (fr.of[x] != w.frame) {
      args.Add("r:" + Key(r), RefString(r));
      continue;
    }
    if (IsControlFlowOp(fg.node(x).op()))
      return NodeUnsupported(fg.node(x), "is control flow inside " + w.loop + " that ge could not take apart");
    if (region.insert(x).second)
      for (const TfInputRef& in : fg.ins(x)) stack.push_back(in);
  }
  return Status::Ok();
}

// The While's name: the frame's, without TensorFlow's "/while_context".
std::string WhileNodeName(const FlowGraph& fg, const std::string& frame) {
  std::string prefix = frame;
  const std::string ctx = "/while_context";
  if (prefix.size() > ctx.size() && prefix.compare(prefix.size() - ctx.size(), ctx.size(), ctx) == 0)
    prefix.resize(prefix.size() - ctx.size());
  return UniqueNodeName(fg, prefix + "/While");
}

// The While node: the arguments, then the outer control inputs of the Enters.
tf::NodeDef WhileNode(const FlowGraph& fg, const Frames& fr, const WhileFrame& w, const std::string& name,
                      const Args& args, const std::string& cond_fn, const std::string& body_fn) {
  tf::NodeDef node;
  node.set_name(name);
  node.set_op("While");
  for (const std::string& s : args.outer) node.add_input(s);
  std::set<std::string> controls;
  for (int i : w.nodes)
    if (fg.Is(i, "Enter"))
      for (const TfInputRef& r : fg.ins(i))
        if (r.control && fr.of[fg.Src(r)] != w.frame) controls.insert(RefString(r));
  for (const std::string& c : controls) node.add_input(c);
  SetFunc(node, "cond", cond_fn);
  SetFunc(node, "body", body_fn);
  return node;
}

// Replaces the frame's nodes with one While whose cond and body functions
// take the variables, the invariants, then the outer values read directly.
Status ReplaceLoopWithWhile(const FlowGraph& fg, const Frames& fr, const WhileFrame& w, Rewriter& rw) {
  Args args;
  for (size_t k = 0; k < w.vars.size(); ++k) args.Add("v:" + std::to_string(k), RefString(fg.ins(w.vars[k].enter)[0]));
  for (int e : w.invariants) args.Add("e:" + fg.node(e).name(), RefString(fg.ins(e)[0]));
  std::set<int> cond_region, body_region;
  if (fg.ins(w.loop_cond).empty() || fg.ins(w.loop_cond)[0].control)
    return NodeError(fg.node(w.loop_cond), "has no data input");
  GE_RETURN_IF_ERROR(CollectLoopRegion(fg, fr, w, fg.ins(w.loop_cond)[0], cond_region, args));
  for (const LoopVar& v : w.vars) GE_RETURN_IF_ERROR(CollectLoopRegion(fg, fr, w, fg.ins(v.next)[0], body_region, args));
  auto remap = [&](const TfInputRef& r) {
    const int x = fg.Src(r);
    if (auto it = w.var_of_merge.find(x); it != w.var_of_merge.end()) return it->second;
    if (auto it = w.var_of_switch.find(x); it != w.var_of_switch.end()) return it->second;
    if (fg.Is(x, "Enter") && fr.of[x] == w.frame) return args.by_key.at("e:" + fg.node(x).name());
    return args.by_key.at("r:" + Key(r));
  };
  const int num_args = static_cast<int>(args.outer.size());
  const std::string while_name = WhileNodeName(fg, w.frame);
  std::vector<TfInputRef> body_rets;
  for (const LoopVar& v : w.vars) body_rets.push_back(fg.ins(v.next)[0]);
  TfFunction body = MakeFunction(fg, body_region, num_args, remap, body_rets);
  for (int k = static_cast<int>(w.vars.size()); k < num_args; ++k) body.rets.push_back(TfInputRef{body.args[k], 0, false});
  const std::string cond_fn =
      rw.library.Add(MakeFunction(fg, cond_region, num_args, remap, {fg.ins(w.loop_cond)[0]}), while_name + "/cond");
  const std::string body_fn = rw.library.Add(std::move(body), while_name + "/body");
  tf::NodeDef node = WhileNode(fg, fr, w, while_name, args, cond_fn, body_fn);

  std::set<int> removed(w.nodes.begin(), w.nodes.end());
  auto remap_outer = [&](int consumer, const TfInputRef& r) -> Result<std::string> {
    const int x = fg.Src(r);
    if (!removed.count(x)) return RefString(r);
    if (r.control) return "^" + while_name;
    auto it = w.exit_var.find(x);
    if (it == w.exit_var.end())
      return NodeUnsupported(fg.node(consumer), "reads " + fg.node(x).name() + ", inside " + w.loop +
                                                    "; only the loop's Exit nodes are read outside it");
    return RefString(TfInputRef{while_name, it->second, false});
  };
  for (const auto& [x, k] : w.exit_var) rw.Rename(fg.node(x).name(), 0, while_name, k);
  return Rewrite(rw.g, fg, removed, remap_outer, {node});
}

// The first innermost tf.while_loop whose body holds no cond becomes a While.
Result<bool> TryLoop(const FlowGraph& fg, const Frames& fr, Rewriter& rw) {
  for (const std::string& F : InnermostLoopFrames(fg, fr)) {
    WhileFrame w;
    w.frame = F;
    w.loop = "loop '" + F + "'";
    bool blocked = false;
    for (int i = 0; i < fg.size(); ++i)
      if (fr.of[i] == F) {
        w.nodes.push_back(i);
        blocked = blocked || fg.IsCondMerge(i);
      }
    if (blocked) continue;
    GE_RETURN_IF_ERROR(FindLoopRoles(fg, fr, w));
    GE_RETURN_IF_ERROR(LinkLoopVars(fg, w));
    GE_RETURN_IF_ERROR(LinkLoopExits(fg, w));
    GE_RETURN_IF_ERROR(ReplaceLoopWithWhile(fg, fr, w, rw));
    return true;
  }
  return false;
}

// Keeps the nodes `outputs` depend on.
void Prune(tf::GraphDef& g, const FlowGraph& fg, const std::vector<TfInputRef>& outputs) {
  std::vector<bool> keep(fg.size(), false);
  std::vector<int> stack;
  for (const TfInputRef& o : outputs)
    if (fg.Find(o.node) >= 0) stack.push_back(fg.Find(o.node));
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (keep[i]) continue;
    keep[i] = true;
    for (const TfInputRef& r : fg.ins(i)) stack.push_back(fg.Src(r));
  }
  tf::GraphDef out;
  for (int i = 0; i < fg.size(); ++i)
    if (keep[i]) *out.add_node() = fg.node(i);
  out.mutable_node()->Swap(g.mutable_node());
}

}  // namespace

Status FunctionalizeControlFlow(tf::GraphDef& g, std::vector<TfInputRef>& outputs, TfLibrary& library) {
  Rewriter rw{g, library, outputs};
  for (int round = 0;; ++round) {
    {
      FlowGraph fg(g);
      GE_RETURN_IF_ERROR(fg.Index());
      Prune(g, fg, outputs);
    }
    FlowGraph fg(g);
    GE_RETURN_IF_ERROR(fg.Index());
    int first = -1;
    for (int i = 0; i < fg.size() && first < 0; ++i)
      if (IsControlFlowOp(fg.node(i).op())) first = i;
    if (first < 0) return Status::Ok();
    if (round > fg.size()) return NodeUnsupported(fg.node(first), "TF 1.x control flow that ge could not take apart");
    GE_ASSIGN_OR_RETURN(Frames fr, ComputeFrames(fg));
    GE_ASSIGN_OR_RETURN(Conds cs, ComputeConds(fg));
    GE_ASSIGN_OR_RETURN(bool done, TryCond(fg, cs, rw));
    if (done) continue;
    GE_ASSIGN_OR_RETURN(done, TryLoop(fg, fr, rw));
    if (done) continue;
    return NodeUnsupported(fg.node(first), "TF 1.x control flow that ge could not take apart into loops and conds");
  }
}

}  // namespace ge::tf_parser
