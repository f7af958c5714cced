// The TF parser's flow: bytes → GraphDef → index (names, inputs) → outputs
// and the nodes they depend on → every op must have a mapper (all misses
// reported at once) → topological order → IR (tf_graph_builder.h).
#include "ge_parsers/tf_parser.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <climits>
#include <set>
#include <exception>

#include "ge_base/mapped_file.h"
#include "ge_proto/protobuf_log.h"
#include "tf_attrs.h"
#include "tf_control_flow.h"
#include "tf_functionalize.h"
#include "tf_graph_builder.h"
#include "tf_graph_index.h"
#include "tf_op_mappers.h"

namespace ge {

namespace {

using tf_parser::TfGraphIndex;
using tf_parser::TfInputRef;

Result<tf::GraphDef> ReadGraphDef(const char* data, size_t size) {
  if (size == 0) return Corrupt("not a TensorFlow GraphDef (the file is empty)");
  if (size > static_cast<size_t>(INT_MAX)) return Unsupported("larger than 2 GB, the protobuf limit");
  tf::GraphDef g;
  if (!g.ParseFromArray(data, static_cast<int>(size)))
    return Corrupt("not a TensorFlow GraphDef (the bytes do not parse as a frozen GraphDef .pb)");
  if (g.node_size() == 0) return Corrupt("not a TensorFlow GraphDef (it has no nodes)");
  return g;
}

constexpr const char* kNotMapped = "op type not supported by the TensorFlow parser";

// What both the pre-check and the conversion need.
struct Prepared {
  std::unique_ptr<tf::GraphDef> rewritten;  // TF 1.x control flow made functional, when there is any
  std::unique_ptr<tf_parser::TfLibrary> library;
  TfGraphIndex index;
  std::vector<TfInputRef> outputs;
  std::vector<const tf::NodeDef*> nodes;  // those the outputs depend on, GraphDef order
  std::vector<TfUnsupportedNode> unsupported;
  Status control_flow;  // why TF 1.x control flow could not be converted
};

// Unsupported ops in the functions `n` calls (and theirs), named "function/node".
void CheckFunctions(const tf::NodeDef& n, tf_parser::TfLibrary& library, std::set<std::string>& seen,
                    std::vector<TfUnsupportedNode>& out) {
  std::vector<std::string> called;
  if (library.Has(n.op())) called.push_back(n.op());
  for (const auto& [k, v] : n.attr())
    if (v.value_case() == tf::AttrValue::kFunc) called.push_back(v.func().name());
  for (const std::string& name : called) {
    if (!seen.insert(name).second) continue;
    auto f = library.Find(name);
    if (!f.ok()) {
      out.push_back({n.name(), n.op(), f.status().message()});
      continue;
    }
    for (const tf::NodeDef& inner : (*f)->body.node()) {
      if (!tf_parser::OpMappers().count(inner.op()) && !library.Has(inner.op()))
        out.push_back({name + "/" + inner.name(), inner.op(), kNotMapped});
      CheckFunctions(inner, library, seen, out);
    }
  }
}

Result<Prepared> Prepare(const tf::GraphDef& g, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(TfGraphIndex index, TfGraphIndex::Build(g));
  for (const auto& [name, dims] : options.input_shapes) {
    const tf::NodeDef* n = index.Find(name);
    if (!n || n->op() != "Placeholder")
      return InvalidArgument("--input_shape names '" + name + "', which is not a Placeholder of the graph");
  }
  Prepared p{nullptr, std::make_unique<tf_parser::TfLibrary>(&g.library()), std::move(index), {}, {}, {}, Status::Ok()};
  GE_ASSIGN_OR_RETURN(p.outputs, p.index.Outputs(options.out_nodes));
  if (options.out_nodes.empty()) {
    // A tf.cond's pivots (an Identity of a Switch nobody reads) and loop
    // internals are not outputs.
    std::vector<TfInputRef> outputs;
    for (const TfInputRef& o : p.outputs) {
      const tf::NodeDef* n = p.index.Find(o.node);
      const auto& ins = p.index.Inputs(*n);
      const std::string& op = n->op();
      const bool pivot = op == "Identity" && !ins.empty() && p.index.Find(ins[0].node)->op() == "Switch";
      if (!pivot && op != "Switch" && op != "Enter" && op != "NextIteration" && op != "LoopCond") outputs.push_back(o);
    }
    if (!outputs.empty()) p.outputs = std::move(outputs);
  }
  p.nodes = p.index.DependenciesOf(p.outputs);
  // TF 1.x control flow → If/While over functions, on a copy of what the
  // outputs need.
  if (std::any_of(p.nodes.begin(), p.nodes.end(), [](const tf::NodeDef* n) { return tf_parser::IsControlFlowOp(n->op()); })) {
    auto copy = std::make_unique<tf::GraphDef>();
    for (const tf::NodeDef* n : p.nodes) *copy->add_node() = *n;
    std::vector<TfInputRef> outputs = p.outputs;
    p.control_flow = tf_parser::FunctionalizeControlFlow(*copy, outputs, *p.library);
    if (p.control_flow.ok()) {
      p.rewritten = std::move(copy);
      GE_ASSIGN_OR_RETURN(p.index, TfGraphIndex::Build(*p.rewritten));
      p.outputs = std::move(outputs);
      p.nodes = p.index.DependenciesOf(p.outputs);
    }
  }
  const auto& table = tf_parser::OpMappers();
  std::set<std::string> checked;
  for (const tf::NodeDef* n : p.nodes) {
    if (tf_parser::IsControlFlowOp(n->op()))
      p.unsupported.push_back({n->name(), n->op(), p.control_flow.message()});
    else if (!table.count(n->op()) && !p.library->Has(n->op()))
      p.unsupported.push_back({n->name(), n->op(), kNotMapped});
    CheckFunctions(*n, *p.library, checked, p.unsupported);
  }
  return p;
}

Result<std::unique_ptr<Graph>> Parse(const char* data, size_t size, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(tf::GraphDef g, ReadGraphDef(data, size));
  GE_ASSIGN_OR_RETURN(Prepared p, Prepare(g, options));
  // One line for the control flow, not one entry per Enter/Merge/Switch.
  if (!p.control_flow.ok()) return p.control_flow;
  for (const TfUnsupportedNode& u : p.unsupported)  // a missing or malformed function
    if (u.reason != kNotMapped) return Unsupported("node " + u.name + " (" + u.op + "): " + u.reason);
  if (!p.unsupported.empty()) return Unsupported(DescribeUnsupported(p.unsupported));
  GE_ASSIGN_OR_RETURN(auto order, p.index.TopologicalOrder(p.nodes));
  tf_parser::TfScope scope;
  scope.library = p.library.get();
  tf_parser::TfGraphBuilder builder(p.index, options, &scope);
  return builder.Build(order, p.outputs);
}

Result<TfCheckReport> Check(const char* data, size_t size, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(tf::GraphDef g, ReadGraphDef(data, size));
  GE_ASSIGN_OR_RETURN(Prepared p, Prepare(g, options));
  TfCheckReport r;
  r.num_nodes = p.nodes.size();
  r.unsupported = std::move(p.unsupported);
  return r;
}

// Protobuf and the standard library may throw; no exception leaves the parser.
template <typename Fn>
auto Guarded(const std::string& origin, Fn fn) -> decltype(fn()) {
  RouteProtobufLogsToSpdlog();  // stderr is for the one error line
  try {
    auto r = fn();
    if (!r.ok()) return r.status().Annotated(origin);
    return r;
  } catch (const std::bad_alloc&) {
    return Internal(origin + ": out of memory while parsing");
  } catch (const std::exception& e) {
    return Internal(origin + ": unexpected error while parsing: " + e.what());
  } catch (...) {
    return Internal(origin + ": unexpected error while parsing");
  }
}

}  // namespace

std::string DescribeUnsupported(const std::vector<TfUnsupportedNode>& nodes) {
  std::string msg = std::to_string(nodes.size()) + " unsupported TensorFlow node" + (nodes.size() == 1 ? "" : "s") + ": ";
  for (size_t i = 0; i < nodes.size(); ++i) msg += (i ? "; " : "") + nodes[i].name + " (" + nodes[i].op + ")";
  return msg;
}

std::vector<std::string> SupportedTfOps() {
  std::vector<std::string> ops;
  for (const auto& [op, fn] : tf_parser::OpMappers())
    if (op[0] != '_') ops.push_back(op);  // _Arg: a function's input, not an op of graphs
  return ops;
}

Result<std::unique_ptr<Graph>> ParseTfBytes(const std::string& bytes, const ParseOptions& options,
                                            const std::string& origin) {
  return Guarded(origin, [&] {
    auto g = Parse(bytes.data(), bytes.size(), options);
    if (g.ok()) spdlog::debug("{}: parsed {} IR nodes", origin, g.value()->num_nodes());
    return g;
  });
}

Result<std::unique_ptr<Graph>> ParseTfFile(const std::string& path, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path, MappedFile::Paging::kPopulate));
  return Guarded(path, [&] { return Parse(file->chars(), file->size(), options); });
}

Result<TfCheckReport> CheckTfBytes(const std::string& bytes, const ParseOptions& options, const std::string& origin) {
  return Guarded(origin, [&] { return Check(bytes.data(), bytes.size(), options); });
}

Result<TfCheckReport> CheckTfFile(const std::string& path, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path, MappedFile::Paging::kPopulate));
  return Guarded(path, [&] { return Check(file->chars(), file->size(), options); });
}

}  // namespace ge
