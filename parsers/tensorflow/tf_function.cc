#include "tf_function.h"

#include <set>

#include "tf_attrs.h"

namespace ge::tf_parser {

namespace {

// The output arguments of the ops with more than one, in OpDef order (each
// one tensor).
const std::map<std::string, std::vector<std::string>>& MultiOutputOps() {
  static const std::map<std::string, std::vector<std::string>> ops = {
      {"FusedBatchNorm", {"y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2"}},
      {"FusedBatchNormV2", {"y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2"}},
      {"FusedBatchNormV3",
       {"y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2", "reserve_space_3"}},
      {"TopKV2", {"values", "indices"}},
      {"Unique", {"y", "idx"}},
      {"UniqueWithCounts", {"y", "idx", "count"}},
      {"Switch", {"output_false", "output_true"}},
      {"Merge", {"output", "value_index"}},
      {"TensorArrayV3", {"handle", "flow"}},
      {"MaxPoolWithArgmax", {"output", "argmax"}},
      {"BroadcastGradientArgs", {"r0", "r1"}},
  };
  return ops;
}

const tf::FunctionDef* FindDef(const tf::FunctionDefLibrary* library, const std::string& name) {
  if (!library) return nullptr;
  for (const tf::FunctionDef& f : library->function())
    if (f.signature().name() == name) return &f;
  return nullptr;
}

// "node:out_arg:k" / "node:out_arg" / "arg" / "arg:k" / "^node" as a GraphDef reference.
Result<std::string> RewriteRef(const std::string& s, const std::set<std::string>& args,
                               const std::map<std::string, const tf::NodeDef*>& nodes,
                               const tf::FunctionDefLibrary* library) {
  if (!s.empty() && s[0] == '^') return s;
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t colon; (colon = s.find(':', start)) != std::string::npos; start = colon + 1)
    parts.push_back(s.substr(start, colon - start));
  parts.push_back(s.substr(start));
  auto number = [](const std::string& t) -> int {
    if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::stoi(t);
  };
  const std::string bad = "'" + s + "' is not a function-body reference (\"arg\", \"node:out_arg\" or \"node:out_arg:k\")";
  if (parts[0].empty() || parts.size() > 3) return InvalidArgument(bad);
  if (args.count(parts[0])) {
    if (parts.size() == 1 || (parts.size() == 2 && number(parts[1]) == 0)) return parts[0];
    return InvalidArgument(bad + "; an argument has one element");
  }
  auto it = nodes.find(parts[0]);
  if (it == nodes.end()) return InvalidArgument("'" + s + "' names no argument or node of the function");
  if (parts.size() == 1) return parts[0];
  const int k = parts.size() == 3 ? number(parts[2]) : 0;
  if (k < 0) return InvalidArgument(bad);
  GE_ASSIGN_OR_RETURN(int index, FlatOutputIndex(*it->second, parts[1], k, library));
  return parts[0] + ":" + std::to_string(index);
}

}  // namespace

Result<int> FlatOutputIndex(const tf::NodeDef& n, const std::string& arg, int k,
                            const tf::FunctionDefLibrary* library) {
  const auto& multi = MultiOutputOps();
  std::vector<std::string> names;
  if (auto it = multi.find(n.op()); it != multi.end()) {
    names = it->second;
  } else if (const tf::FunctionDef* f = FindDef(library, n.op())) {
    for (const auto& a : f->signature().output_arg()) names.push_back(a.name());
  } else {
    return k;  // one output argument: element k is output k
  }
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == arg) {
      if (k != 0) return NodeError(n, "output argument '" + arg + "' has one element, not " + std::to_string(k + 1));
      return static_cast<int>(i);
    }
  return NodeError(n, "has no output argument '" + arg + "'");
}

Result<TfFunction> ConvertFunctionDef(const tf::FunctionDef& f, const tf::FunctionDefLibrary* library) {
  TfFunction fn;
  fn.name = f.signature().name();
  std::set<std::string> args;
  std::map<std::string, const tf::NodeDef*> nodes;
  for (const tf::NodeDef& n : f.node_def()) nodes[n.name()] = &n;
  for (int i = 0; i < f.signature().input_arg_size(); ++i) {
    const auto& a = f.signature().input_arg(i);
    if (!a.number_attr().empty() || !a.type_list_attr().empty())
      return Unsupported("argument '" + a.name() + "' is a list of tensors, which ge does not take");
    if (a.name().empty() || !args.insert(a.name()).second || nodes.count(a.name()))
      return InvalidArgument("argument " + std::to_string(i) + " '" + a.name() + "' is unnamed or named twice");
    tf::NodeDef* arg = fn.body.add_node();
    arg->set_name(a.name());
    arg->set_op("_Arg");
    (*arg->mutable_attr())["index"].set_i(i);
    (*arg->mutable_attr())["T"].set_type(a.type());
    fn.args.push_back(a.name());
  }
  for (const tf::NodeDef& n : f.node_def()) {
    tf::NodeDef* copy = fn.body.add_node();
    *copy = n;
    copy->clear_input();
    for (const std::string& in : n.input()) {
      auto ref = RewriteRef(in, args, nodes, library);
      if (!ref.ok()) return ref.status().Annotated("node " + NodeLabel(n));
      copy->add_input(*ref);
    }
  }
  for (const auto& a : f.signature().output_arg()) {
    if (!a.number_attr().empty() || !a.type_list_attr().empty())
      return Unsupported("result '" + a.name() + "' is a list of tensors, which ge does not take");
    auto it = f.ret().find(a.name());
    if (it == f.ret().end()) return InvalidArgument("result '" + a.name() + "' has no entry in ret");
    auto ref = RewriteRef(it->second, args, nodes, library);
    if (!ref.ok()) return ref.status().Annotated("result '" + a.name() + "'");
    GE_ASSIGN_OR_RETURN(TfInputRef r, ParseInputRef(*ref));
    if (r.control) return InvalidArgument("result '" + a.name() + "' is a control reference");
    fn.rets.push_back(r);
  }
  return fn;
}

TfLibrary::TfLibrary(const tf::FunctionDefLibrary* defs) : defs_(defs) {
  if (defs_)
    for (const tf::FunctionDef& f : defs_->function()) by_name_.emplace(f.signature().name(), &f);
}

bool TfLibrary::Has(const std::string& name) const { return by_name_.count(name) || converted_.count(name); }

Result<const TfFunction*> TfLibrary::Find(const std::string& name) {
  if (auto it = converted_.find(name); it != converted_.end()) return it->second.get();
  auto def = by_name_.find(name);
  if (def == by_name_.end()) return NotFound("the graph's library has no function '" + name + "'");
  auto fn = ConvertFunctionDef(*def->second, defs_);
  if (!fn.ok()) return fn.status().Annotated("function '" + name + "'");
  auto& slot = converted_[name];
  slot = std::make_unique<TfFunction>(std::move(fn).value());
  return slot.get();
}

std::string TfLibrary::Add(TfFunction f, const std::string& base) {
  std::string name = base;
  for (int k = 1; Has(name); ++k) name = base + "_" + std::to_string(k);
  f.name = name;
  converted_[name] = std::make_unique<TfFunction>(std::move(f));
  return name;
}

}  // namespace ge::tf_parser
