#include "tf_control_flow.h"

#include <algorithm>
#include <functional>
#include <set>

#include "ge/ir/nesting.h"
#include "ge/ops/op_registry.h"
#include "ge_parsers/tf_parser.h"
#include "tf_attrs.h"

namespace ge::tf_parser {

bool IsControlFlowOp(const std::string& op) {
  static const std::set<std::string> ops = {"Enter",         "RefEnter", "Exit",     "RefExit",  "Switch",
                                            "RefSwitch",     "Merge",    "RefMerge", "LoopCond", "NextIteration",
                                            "RefNextIteration"};
  return ops.count(op) != 0;
}

const TaState* TfScope::FindTa(Endpoint ep) const {
  auto it = tensor_arrays.find({ep.node, ep.index});
  return it == tensor_arrays.end() ? nullptr : &it->second;
}

TfValue AddTaValue(const tf::NodeDef& n, TfGraphBuilder& b, TaState state, const std::string& suffix) {
  Endpoint ep = b.AddConst(n, suffix, Tensor::FromVector<float>(DataType::kFloat32, {}, {0.f}));
  if (state.origin.empty()) state.origin = n.name();
  b.scope()->tensor_arrays[{ep.node, ep.index}] = state;
  return TfValue{ep, false};
}

namespace {

// A function body converted to an IR graph, with the values of its
// arguments and results there (TensorArray states in `scope`).
struct FunctionGraph {
  std::unique_ptr<Graph> graph;
  std::vector<TfValue> args, rets;
  std::unique_ptr<TfScope> scope;

  // The IR value of result k as the NetOutput receives it.
  Endpoint Result(size_t k) const { return graph->OutputNode()->InputSource(k); }
  const TaState* Ta(const TfValue& v) const { return scope->FindTa(v.ep); }
};

Result<std::string> FunctionAttr(const tf::NodeDef& n, const std::string& attr) {
  const tf::AttrValue* v = FindAttr(n, attr);
  if (!v || v->value_case() != tf::AttrValue::kFunc || v->func().name().empty())
    return NodeError(n, "needs attribute '" + attr + "' naming a function");
  return v->func().name();
}

Result<FunctionGraph> BuildFunction(const tf::NodeDef& caller, TfGraphBuilder& b, const std::string& name,
                                    std::vector<TfArgBinding> args, const std::string& graph_name) {
  TfScope* outer = b.scope();
  if (!outer || !outer->library) return Internal("node " + NodeLabel(caller) + ": no function library in scope");
  if (std::find(outer->stack.begin(), outer->stack.end(), name) != outer->stack.end()) {
    std::string chain;
    for (const std::string& s : outer->stack) chain += s + " -> ";
    return NodeError(caller, "calls function '" + name + "' recursively (" + chain + name + ")");
  }
  // Each call is a subgraph level: the IR's nesting limit applies.
  if (outer->stack.size() >= static_cast<size_t>(kMaxSubgraphNesting))
    return NodeUnsupported(caller, "function calls nest deeper than " + std::to_string(kMaxSubgraphNesting));
  auto found = outer->library->Find(name);
  if (!found.ok()) return NodeError(caller, found.status().message());
  const TfFunction& f = **found;
  if (args.size() != f.args.size())
    return NodeError(caller, "passes " + std::to_string(args.size()) + " inputs to function '" + name + "', which takes " +
                                 std::to_string(f.args.size()));
  const std::string where = "function '" + name + "' (called by " + NodeLabel(caller) + ")";
  FunctionGraph fg;
  fg.scope = std::make_unique<TfScope>();
  fg.scope->library = outer->library;
  fg.scope->stack = outer->stack;
  fg.scope->stack.push_back(name);
  fg.scope->args = std::move(args);

  auto index = TfGraphIndex::Build(f.body);
  if (!index.ok()) return index.status().Annotated(where);
  std::vector<TfInputRef> roots = f.rets;
  for (const std::string& a : f.args) roots.push_back(TfInputRef{a, 0, false});
  const auto nodes = index->DependenciesOf(roots);
  std::vector<TfUnsupportedNode> unsupported;
  for (const tf::NodeDef* n : nodes)
    if (!OpMappers().count(n->op()) && !outer->library->Has(n->op()))
      unsupported.push_back({n->name(), n->op(), "op type not supported by the TensorFlow parser"});
  if (!unsupported.empty()) return Unsupported(where + ": " + DescribeUnsupported(unsupported));
  auto order = index->TopologicalOrder(nodes);
  if (!order.ok()) return order.status().Annotated(where);
  ParseOptions options = b.options();
  options.input_shapes.clear();
  options.out_nodes.clear();
  TfGraphBuilder sub(*index, options, fg.scope.get());
  auto graph = sub.Build(*order, f.rets);
  if (!graph.ok()) return graph.status().Annotated(where);
  fg.graph = std::move(graph).value();
  fg.graph->set_name(graph_name);
  for (const std::string& a : f.args) {
    const TfValue* v = sub.Value(TfInputRef{a, 0, false});
    if (!v) return Internal(where + ": argument '" + a + "' has no value");
    fg.args.push_back(*v);
  }
  for (const TfInputRef& r : f.rets) fg.rets.push_back(*sub.Value(r));  // Build checked them
  return fg;
}

// Copies `sub`, but for its Data and NetOutput nodes, into `into`: Data
// index i reads inputs[i]. Returns what the NetOutput reads, there.
Result<std::vector<Endpoint>> InlineGraph(const Graph& sub, Graph& into, const std::vector<Endpoint>& inputs,
                                          const std::function<std::string(const std::string&)>& name_for,
                                          std::vector<Node*>* made) {
  std::map<const Node*, Node*> copies;
  std::map<const Node*, Endpoint> data;
  for (Node* d : sub.InputNodes()) {
    const int64_t i = d->GetInt("index", -1);
    if (i < 0 || i >= static_cast<int64_t>(inputs.size()) || !inputs[i].valid())
      return Internal("inlining graph " + sub.name() + ": Data node " + d->name() + " has no value");
    data[d] = inputs[i];
  }
  auto mapped = [&](Endpoint src) -> Endpoint {
    if (auto it = data.find(src.node); it != data.end()) return it->second;
    return Endpoint{copies.at(src.node), src.index};
  };
  GE_ASSIGN_OR_RETURN(auto order, sub.TopologicalOrder());
  for (Node* n : order) {
    if (n->type() == op::kData || n->type() == op::kNetOutput) continue;
    Node* c = into.AddNode(n->type(), name_for(n->name()), n->num_inputs(), n->num_outputs());
    for (const auto& [k, v] : n->attrs()) c->SetAttr(k, v);
    for (size_t i = 0; i < n->num_inputs(); ++i) c->input_desc(i) = n->input_desc(i);
    for (size_t j = 0; j < n->num_outputs(); ++j) c->output_desc(j) = n->output_desc(j);
    for (const auto& [k, g] : n->subgraphs()) c->subgraphs()[k] = g ? std::shared_ptr<Graph>(g->Clone()) : nullptr;
    copies[n] = c;
    if (made) made->push_back(c);
    for (size_t i = 0; i < n->num_inputs(); ++i)
      if (n->HasInput(i)) {
        const Endpoint src = mapped(n->InputSource(i));
        GE_RETURN_IF_ERROR(into.AddEdge(src.node, src.index, c, static_cast<int>(i)));
      }
    for (Node* ctl : n->control_inputs())
      if (copies.count(ctl)) into.AddControlEdge(copies[ctl], c);
  }
  std::vector<Endpoint> outs;
  const Node* out = sub.OutputNode();
  for (size_t j = 0; out && j < out->num_inputs(); ++j) outs.push_back(mapped(out->InputSource(j)));
  return outs;
}

// `sub` inlined into the graph b builds, for the TF node n.
Result<std::vector<Endpoint>> InlineInto(const tf::NodeDef& n, TfGraphBuilder& b, const Graph& sub,
                                         const std::vector<Endpoint>& inputs, const std::string& prefix) {
  std::vector<Node*> made;
  auto outs = InlineGraph(sub, b.graph(), inputs,
                          [&](const std::string& name) { return b.UniqueName(n.name() + "/" + prefix + "/" + name); },
                          &made);
  for (Node* m : made) b.Adopt(m);
  return outs;
}

// Data input i of a call as a function argument: its value in TF's layout.
Result<TfArgBinding> PlainArg(const tf::NodeDef& n, TfGraphBuilder& b, int i, Endpoint* ep) {
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, i));
  if (const TaState* ta = b.scope()->FindTa(v.ep))
    return NodeUnsupported(n, "input " + std::to_string(i) + " is a TensorArray (made by " + ta->origin +
                                  "); ge follows TensorArrays only into the loop that reads or writes them");
  GE_ASSIGN_OR_RETURN(*ep, b.Logical(v));
  TfArgBinding a;
  a.desc = b.Desc(*ep);
  a.captured = n.input(i);
  return a;
}

Result<std::vector<TfArgBinding>> PlainArgs(const tf::NodeDef& n, TfGraphBuilder& b, int first,
                                            std::vector<Endpoint>* eps) {
  std::vector<TfArgBinding> args;
  for (int i = first; i < b.NumDataInputs(n); ++i) {
    Endpoint ep;
    GE_ASSIGN_OR_RETURN(TfArgBinding a, PlainArg(n, b, i, &ep));
    args.push_back(std::move(a));
    eps->push_back(ep);
  }
  return args;
}

Status RefuseTaResults(const tf::NodeDef& n, const FunctionGraph& f, const std::string& what) {
  for (size_t k = 0; k < f.rets.size(); ++k)
    if (f.Ta(f.rets[k]))
      return NodeUnsupported(n, what + " returns a TensorArray as result " + std::to_string(k) +
                                    "; ge follows TensorArrays only through the loop that writes them");
  return Status::Ok();
}

// _Arg (a function body's input): a Data node with the binding's desc, or a
// TensorArray placeholder.
Status MapArg(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(int64_t index, AttrInt(n, "index"));
  TfScope* scope = b.scope();
  if (!scope || index < 0 || index >= static_cast<int64_t>(scope->args.size()))
    return NodeError(n, "argument index " + std::to_string(index) + " is not one of the function's");
  const TfArgBinding& a = scope->args[static_cast<size_t>(index)];
  if (a.ta && a.ta->kind != TaKind::kContent) {
    b.Define(n, 0, AddTaValue(n, b, *a.ta, "ta"));
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(Node* d, b.Add(n, op::kData, {}, {{"index", index}}));
  d->output_desc(0) = a.desc;
  if (!a.captured.empty()) d->SetAttr("_captured", a.captured);
  if (a.ta) {
    TaState content = *a.ta;
    content.content = Endpoint{d, 0};
    b.Define(n, 0, AddTaValue(n, b, content, "ta"));
  } else {
    b.Define(n, 0, TfValue{Endpoint{d, 0}, false});
  }
  return Status::Ok();
}

// If(cond, inputs...): both branches take the inputs as captures.
Status MapIf(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::string then_name, FunctionAttr(n, "then_branch"));
  GE_ASSIGN_OR_RETURN(std::string else_name, FunctionAttr(n, "else_branch"));
  GE_ASSIGN_OR_RETURN(TfValue cond_v, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(Endpoint cond, b.Logical(cond_v));
  const DataType ct = b.Desc(cond).dtype;
  if (ct != DataType::kBool && ct != DataType::kInt32 && ct != DataType::kInt64 && ct != DataType::kUInt8) {
    // TF: a number is true when nonzero.
    GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "Cast", {cond}, {{"to", OnnxElemType(DataType::kBool)}}, "cond_bool"));
    cond = Endpoint{c, 0};
  }
  std::vector<Endpoint> inputs;
  GE_ASSIGN_OR_RETURN(auto args, PlainArgs(n, b, 1, &inputs));
  GE_ASSIGN_OR_RETURN(FunctionGraph then_g, BuildFunction(n, b, then_name, args, "then_branch"));
  GE_ASSIGN_OR_RETURN(FunctionGraph else_g, BuildFunction(n, b, else_name, args, "else_branch"));
  if (then_g.rets.size() != else_g.rets.size())
    return NodeError(n, "then_branch '" + then_name + "' returns " + std::to_string(then_g.rets.size()) +
                            " values, else_branch '" + else_name + "' " + std::to_string(else_g.rets.size()));
  GE_RETURN_IF_ERROR(RefuseTaResults(n, then_g, "then_branch '" + then_name + "'"));
  GE_RETURN_IF_ERROR(RefuseTaResults(n, else_g, "else_branch '" + else_name + "'"));
  std::vector<Endpoint> ins = {cond};
  ins.insert(ins.end(), inputs.begin(), inputs.end());
  const size_t outs = then_g.rets.size();
  GE_ASSIGN_OR_RETURN(Node* node,
                      b.Add(n, "If", ins, {{"_captures", static_cast<int64_t>(inputs.size())}}, "", outs,
                            {{"then_branch", std::move(then_g.graph)}, {"else_branch", std::move(else_g.graph)}}));
  for (size_t j = 0; j < outs; ++j) b.Define(n, static_cast<int>(j), TfValue{Endpoint{node, static_cast<int>(j)}, false});
  return Status::Ok();
}

// PartitionedCall and calls of library functions: the body inlined.
Status InlineCall(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& name) {
  std::vector<Endpoint> inputs;
  GE_ASSIGN_OR_RETURN(auto args, PlainArgs(n, b, 0, &inputs));
  for (auto& a : args) a.captured.clear();
  GE_ASSIGN_OR_RETURN(FunctionGraph f, BuildFunction(n, b, name, std::move(args), name));
  GE_RETURN_IF_ERROR(RefuseTaResults(n, f, "function '" + name + "'"));
  GE_ASSIGN_OR_RETURN(auto outs, InlineInto(n, b, *f.graph, inputs, name));
  for (size_t j = 0; j < outs.size(); ++j) b.Define(n, static_cast<int>(j), TfValue{outs[j], false});
  return Status::Ok();
}

Status MapPartitionedCall(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::string name, FunctionAttr(n, "f"));
  return InlineCall(n, b, name);
}

// ---- While ----

// What the body does with a While variable.
enum class VarRole {
  kCarried,    // changes: a Loop-carried value
  kCapture,    // returned unchanged: a capture of the Loop
  kTaHandle,   // a TensorArray's handle: nothing in the IR
  kTaContent,  // the flow of a scattered TensorArray: its rows, captured
  kScan,       // the flow of a TensorArray written once per step: a scan output
};

bool IsConstEqual(const Node* n, int64_t value) {
  if (!n || n->type() != op::kConst) return false;
  const Tensor* t = n->GetTensor("value");
  if (!t || (t->desc().dtype != DataType::kInt32 && t->desc().dtype != DataType::kInt64)) return false;
  const auto v = t->ToInt64();
  return v.size() == 1 && v[0] == value;
}

struct WhileParts {
  std::vector<TfValue> outer;     // the inputs as converted
  std::vector<Endpoint> init;     // their IR values (TensorArray rows for kTaContent)
  std::vector<TfArgBinding> args;
  FunctionGraph body;
  std::vector<VarRole> role;
};

Status BindWhileInputs(const tf::NodeDef& n, TfGraphBuilder& b, WhileParts& w) {
  const int count = b.NumDataInputs(n);
  if (count == 0) return NodeError(n, "has no loop variables");
  w.outer.resize(count);
  w.init.resize(count);
  w.args.resize(count);
  for (int k = 0; k < count; ++k) {
    GE_ASSIGN_OR_RETURN(w.outer[k], b.Input(n, k));
    w.args[k].captured = n.input(k);
    if (const TaState* ta = b.scope()->FindTa(w.outer[k].ep)) {
      TaState s = *ta;
      if (s.kind == TaKind::kEmpty) {
        s.kind = TaKind::kAccumulator;
      } else if (s.kind == TaKind::kContent) {
        w.init[k] = s.content;
        w.args[k].desc = b.Desc(s.content);
      } else if (s.kind != TaKind::kHandle) {
        return NodeUnsupported(n, "loop variable " + std::to_string(k) + " is TensorArray " + s.origin +
                                      " while an enclosing loop writes it");
      }
      w.args[k].ta = s;
      continue;
    }
    GE_ASSIGN_OR_RETURN(w.init[k], b.Logical(w.outer[k]));
    w.args[k].desc = b.Desc(w.init[k]);
  }
  return Status::Ok();
}

// The body, converted again (at most twice more) while an iteration changes
// a variable's dims: they become unknown.
Status BuildWhileBody(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& name, WhileParts& w) {
  for (int attempt = 0;; ++attempt) {
    GE_ASSIGN_OR_RETURN(w.body, BuildFunction(n, b, name, w.args, "body"));
    if (w.body.rets.size() != w.args.size())
      return NodeError(n, "body '" + name + "' returns " + std::to_string(w.body.rets.size()) + " values for " +
                              std::to_string(w.args.size()) + " loop variables");
    bool changed = false;
    for (size_t k = 0; k < w.args.size(); ++k) {
      if (w.args[k].ta || w.body.Ta(w.body.rets[k]) || w.body.rets[k].ep == w.body.args[k].ep) continue;
      const Endpoint result = w.body.Result(k);
      const TensorDesc& after = result.node->output_desc(static_cast<size_t>(result.index));
      if (after.dtype != w.args[k].desc.dtype)
        return NodeError(n, "loop variable " + std::to_string(k) + " is " + w.args[k].desc.ToString() +
                                " before the loop and " + after.ToString() + " after an iteration");
      const TensorDesc wide = CommonDesc(w.args[k].desc, after);
      if (wide.dims != w.args[k].desc.dims) {
        w.args[k].desc = wide;
        changed = true;
      }
    }
    if (!changed || attempt == 2) return Status::Ok();
  }
}

Status ClassifyWhileVars(const tf::NodeDef& n, WhileParts& w) {
  const FunctionGraph& body = w.body;
  for (size_t k = 0; k < w.args.size(); ++k) {
    const TaState* ret = body.Ta(body.rets[k]);
    const bool same = body.rets[k].ep == body.args[k].ep;
    const std::string var = "loop variable " + std::to_string(k);
    if (w.args[k].ta) {
      const TaState& in = *w.args[k].ta;
      if (in.kind == TaKind::kAccumulator) {
        if (!ret || ret->kind != TaKind::kWritten)
          return NodeUnsupported(n, var + ", the flow of TensorArray " + in.origin +
                                        ", is not written once per iteration by a TensorArrayWriteV3");
        w.role.push_back(VarRole::kScan);
      } else if (!same) {
        return NodeUnsupported(n, var + ", TensorArray " + in.origin +
                                      ", changes in the loop; ge takes TensorArrays scattered before a loop and read "
                                      "in it, or written once per iteration and gathered after it");
      } else {
        w.role.push_back(in.kind == TaKind::kHandle ? VarRole::kTaHandle : VarRole::kTaContent);
      }
    } else if (ret) {
      return NodeUnsupported(n, "the body returns TensorArray " + ret->origin + " as " + var +
                                    ", which enters the loop as a tensor");
    } else {
      w.role.push_back(same ? VarRole::kCapture : VarRole::kCarried);
    }
  }
  return Status::Ok();
}

// A write at index i of step i: i is a carried variable starting at a
// constant 0 and stepping by a constant 1.
bool IsStepCounter(const WhileParts& w, Endpoint index, const std::vector<size_t>& carried,
                   const std::vector<Endpoint>& next) {
  for (size_t j = 0; j < carried.size(); ++j) {
    const size_t k = carried[j];
    const Node* data = w.body.args[k].ep.node;
    if (index.node != data || !IsConstEqual(w.init[k].node, 0)) continue;
    const Node* step = next[j].node;
    if (!step || step->type() != "Add" || step->num_inputs() != 2) continue;
    const Node* a = step->InputNode(0);
    const Node* c = step->InputNode(1);
    if ((a == data && IsConstEqual(c, 1)) || (c == data && IsConstEqual(a, 1))) return true;
  }
  return false;
}

// While(vars...) → cond inlined on the initial values, then
// Loop(-, cond, carried..., captures...) with body
// (iteration, cond, carried..., captures...) → (cond(next), next..., rows...).
Status MapWhile(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::string cond_name, FunctionAttr(n, "cond"));
  GE_ASSIGN_OR_RETURN(std::string body_name, FunctionAttr(n, "body"));
  WhileParts w;
  GE_RETURN_IF_ERROR(BindWhileInputs(n, b, w));
  GE_RETURN_IF_ERROR(BuildWhileBody(n, b, body_name, w));
  GE_RETURN_IF_ERROR(ClassifyWhileVars(n, w));
  GE_ASSIGN_OR_RETURN(FunctionGraph cond, BuildFunction(n, b, cond_name, w.args, "cond"));
  if (cond.rets.size() != 1)
    return NodeError(n, "cond '" + cond_name + "' returns " + std::to_string(cond.rets.size()) + " values, not 1");
  GE_RETURN_IF_ERROR(RefuseTaResults(n, cond, "cond '" + cond_name + "'"));

  const size_t count = w.args.size();
  std::vector<size_t> carried, captures, scans;
  for (size_t k = 0; k < count; ++k) {
    if (w.role[k] == VarRole::kCarried) carried.push_back(k);
    if (w.role[k] == VarRole::kCapture || w.role[k] == VarRole::kTaContent) captures.push_back(k);
    if (w.role[k] == VarRole::kScan) scans.push_back(k);
  }
  // The cond's inputs: the values before the loop (outer graph), or after
  // an iteration (body).
  Graph& g = *w.body.graph;
  auto data_of = [&](size_t k) -> Node* {
    if (w.role[k] == VarRole::kTaContent) return w.body.Ta(w.body.args[k])->content.node;
    return w.body.args[k].ep.node;
  };
  std::vector<Endpoint> before(count), after(count);
  for (size_t k : carried) {
    before[k] = w.init[k];
    after[k] = w.body.Result(k);
  }
  for (size_t k : captures) {
    before[k] = w.init[k];
    after[k] = Endpoint{data_of(k), 0};
  }
  GE_ASSIGN_OR_RETURN(auto cond0, InlineInto(n, b, *cond.graph, before, "cond"));

  std::vector<Endpoint> next, rows;
  for (size_t k : carried) next.push_back(after[k]);
  for (size_t k : scans) {
    const TaState* written = w.body.Ta(w.body.rets[k]);
    if (!IsStepCounter(w, written->index, carried, next))
      return NodeUnsupported(n, "TensorArrayWriteV3 " + written->origin +
                                    " writes at an index that is not a step counter of the loop (a variable from 0 "
                                    "by 1); ge takes only one write per iteration, in order");
    rows.push_back(written->content);
  }
  // Renumber the body's inputs: iteration, cond, carried..., captures...
  for (size_t j = 0; j < carried.size(); ++j) {
    data_of(carried[j])->SetAttr("index", static_cast<int64_t>(2 + j));
    data_of(carried[j])->RemoveAttr("_captured");
  }
  for (size_t c = 0; c < captures.size(); ++c)
    data_of(captures[c])->SetAttr("index", static_cast<int64_t>(2 + carried.size() + c));
  Node* iter = g.AddNode(op::kData, g.MakeUniqueName("iteration"), 0, 1);
  iter->SetAttr("index", int64_t{0});
  iter->output_desc(0) = TensorDesc(DataType::kInt64, {});
  Node* keep = g.AddNode(op::kData, g.MakeUniqueName("condition"), 0, 1);
  keep->SetAttr("index", int64_t{1});
  keep->output_desc(0) = TensorDesc(DataType::kBool, {});
  GE_ASSIGN_OR_RETURN(auto cond1, InlineGraph(*cond.graph, g, after,
                                              [&](const std::string& s) { return g.MakeUniqueName("cond/" + s); },
                                              nullptr));
  std::vector<Endpoint> outs = {cond1[0]};
  outs.insert(outs.end(), next.begin(), next.end());
  outs.insert(outs.end(), rows.begin(), rows.end());
  g.RemoveNode(g.OutputNode());
  Node* out = g.AddNode(op::kNetOutput, g.MakeUniqueName(op::kNetOutput), outs.size(), 0);
  for (size_t j = 0; j < outs.size(); ++j) GE_RETURN_IF_ERROR(g.AddEdge(outs[j].node, outs[j].index, out, static_cast<int>(j)));
  for (Node* c : g.nodes())  // TensorArray placeholders
    if (c->type() == op::kConst && c->OutNodes().empty() && c->control_outputs().empty()) g.RemoveNode(c);

  std::vector<Endpoint> ins = {Endpoint{}, cond0[0]};
  for (size_t k : carried) ins.push_back(w.init[k]);
  for (size_t k : captures) ins.push_back(w.init[k]);
  GE_ASSIGN_OR_RETURN(Node* loop, b.Add(n, "Loop", ins, {{"_captures", static_cast<int64_t>(captures.size())}}, "",
                                        carried.size() + scans.size(),
                                        {{"body", std::shared_ptr<Graph>(std::move(w.body.graph))}}));
  for (size_t k = 0, j = 0, s = 0; k < count; ++k) {
    switch (w.role[k]) {
      case VarRole::kCarried: b.Define(n, static_cast<int>(k), TfValue{Endpoint{loop, static_cast<int>(j++)}, false}); break;
      case VarRole::kScan: {
        TaState stacked{TaKind::kContent, Endpoint{loop, static_cast<int>(carried.size() + s++)}, {},
                        w.args[k].ta->origin, w.args[k].ta->size};
        b.Define(n, static_cast<int>(k), AddTaValue(n, b, stacked, "ta_rows"));
        break;
      }
      default: b.Define(n, static_cast<int>(k), w.outer[k]);
    }
  }
  return Status::Ok();
}

}  // namespace

Status MapFunctionCall(const tf::NodeDef& n, TfGraphBuilder& b) { return InlineCall(n, b, n.op()); }

void AddControlFlowMappers(OpMapperTable& t) {
  t["_Arg"] = MapArg;
  for (const char* op : {"If", "StatelessIf"}) t[op] = MapIf;
  for (const char* op : {"PartitionedCall", "StatefulPartitionedCall"}) t[op] = MapPartitionedCall;
  for (const char* op : {"While", "StatelessWhile"}) t[op] = MapWhile;
  AddTensorArrayMappers(t);
}

}  // namespace ge::tf_parser
