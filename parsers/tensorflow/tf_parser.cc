// The TF parser's flow: bytes → GraphDef → index (names, inputs) → outputs
// and the nodes they depend on → every op must have a mapper (all misses
// reported at once) → topological order → IR (tf_graph_builder.h).
#include "ge_parsers/tf_parser.h"

#include <spdlog/spdlog.h>

#include <climits>
#include <exception>

#include "ge_proto/protobuf_log.h"
#include "onnx/mapped_file.h"  // the parsers' shared read-only file view
#include "tf_attrs.h"
#include "tf_control_flow.h"
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

// What both the pre-check and the conversion need.
struct Prepared {
  TfGraphIndex index;
  std::vector<TfInputRef> outputs;
  std::vector<const tf::NodeDef*> nodes;  // those the outputs depend on, GraphDef order
  std::vector<TfUnsupportedNode> unsupported;
};

Result<Prepared> Prepare(const tf::GraphDef& g, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(TfGraphIndex index, TfGraphIndex::Build(g));
  for (const auto& [name, dims] : options.input_shapes) {
    const tf::NodeDef* n = index.Find(name);
    if (!n || n->op() != "Placeholder")
      return InvalidArgument("--input_shape names '" + name + "', which is not a Placeholder of the graph");
  }
  Prepared p{std::move(index), {}, {}, {}};
  GE_ASSIGN_OR_RETURN(p.outputs, p.index.Outputs(options.out_nodes));
  p.nodes = p.index.DependenciesOf(p.outputs);
  const auto& table = tf_parser::OpMappers();
  const std::string control_flow = tf_parser::DescribeControlFlow(p.nodes);
  for (const tf::NodeDef* n : p.nodes) {
    if (tf_parser::IsControlFlowOp(n->op())) p.unsupported.push_back({n->name(), n->op(), control_flow});
    else if (!table.count(n->op()))
      p.unsupported.push_back({n->name(), n->op(), "op type not supported by the TensorFlow parser"});
  }
  return p;
}

Result<std::unique_ptr<Graph>> Parse(const char* data, size_t size, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(tf::GraphDef g, ReadGraphDef(data, size));
  GE_ASSIGN_OR_RETURN(Prepared p, Prepare(g, options));
  // One line for a loop, not one entry per Enter/Merge/Switch of it.
  const std::string control_flow = tf_parser::DescribeControlFlow(p.nodes);
  if (!control_flow.empty()) return Unsupported(control_flow);
  if (!p.unsupported.empty()) return Unsupported(DescribeUnsupported(p.unsupported));
  GE_ASSIGN_OR_RETURN(auto order, p.index.TopologicalOrder(p.nodes));
  tf_parser::TfGraphBuilder builder(p.index, options);
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
  for (const auto& [op, fn] : tf_parser::OpMappers()) ops.push_back(op);
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
  GE_ASSIGN_OR_RETURN(onnx_parser::MappedFile file, onnx_parser::MappedFile::Open(path));
  return Guarded(path, [&] { return Parse(file.data(), file.size(), options); });
}

Result<TfCheckReport> CheckTfBytes(const std::string& bytes, const ParseOptions& options, const std::string& origin) {
  return Guarded(origin, [&] { return Check(bytes.data(), bytes.size(), options); });
}

Result<TfCheckReport> CheckTfFile(const std::string& path, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(onnx_parser::MappedFile file, onnx_parser::MappedFile::Open(path));
  return Guarded(path, [&] { return Check(file.data(), file.size(), options); });
}

}  // namespace ge
