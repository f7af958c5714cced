// The ONNX parser's flow: bytes → ModelProto → reject what ge cannot take
// (names that are not UTF-8, foreign domains, tensors it cannot read) →
// check → window attributes → opset conversion → input shape overrides →
// shape inference → IR.
#include "ge_parsers/onnx_parser.h"

#include <spdlog/spdlog.h>

#include <climits>
#include <exception>

#include "ge_base/mapped_file.h"
#include "ge_proto/protobuf_log.h"
#include "onnx_attr_check.h"
#include "onnx/onnx_pb.h"
#include "onnx_graph_builder.h"
#include "onnx_model_prep.h"
#include "onnx_name_check.h"
#include "onnx_text_check.h"

namespace ge {

namespace {

Result<std::unique_ptr<Graph>> Parse(const char* data, size_t size, const ParseOptions& options) {
  if (size == 0) return Corrupt("not an ONNX model (the file is empty)");
  if (size > static_cast<size_t>(INT_MAX))
    return Unsupported("larger than 2 GB, the protobuf limit; models with external data are not supported");
  onnx::ModelProto model;
  if (!model.ParseFromArray(data, static_cast<int>(size)))
    return Corrupt("not an ONNX model (the bytes do not parse as an ONNX ModelProto)");
  // Almost any bytes parse as *some* message; a model has a graph.
  if (!model.has_graph()) return Corrupt("not an ONNX model (it has no graph)");

  GE_RETURN_IF_ERROR(onnx_parser::CheckUtf8(model.graph()));
  GE_RETURN_IF_ERROR(onnx_parser::RejectForeignDomains(model.graph()));
  GE_RETURN_IF_ERROR(onnx_parser::CheckTensors(model.graph()));
  GE_RETURN_IF_ERROR(onnx_parser::CheckModel(model));
  // Before the version converter and shape inference: onnx divides by these.
  GE_RETURN_IF_ERROR(onnx_parser::CheckWindowAttributes(model.graph()));
  GE_RETURN_IF_ERROR(onnx_parser::CheckNamesDefined(model.graph()));
  int64_t opset = -1;
  const int64_t original_opset = onnx_parser::DefaultDomainOpset(model);
  GE_RETURN_IF_ERROR(onnx_parser::ConvertOpsetIfNeeded(&model, &opset));
  if (opset != original_opset) spdlog::info("converted ONNX opset {} to {}", original_opset, opset);
  GE_RETURN_IF_ERROR(onnx_parser::ApplyInputShapes(&model, options.input_shapes));
  GE_RETURN_IF_ERROR(onnx_parser::InferShapes(&model));
  return onnx_parser::BuildGraph(model.graph(), opset, options.out_nodes);
}

Result<std::unique_ptr<Graph>> ParseBuffer(const char* data, size_t size, const ParseOptions& options,
                                           const std::string& origin) {
  RouteProtobufLogsToSpdlog();  // stderr is for the one error line
  // The onnx library and protobuf throw; no exception may leave the parser.
  try {
    auto graph = Parse(data, size, options);
    if (!graph.ok()) return graph.status().Annotated(origin);
    spdlog::debug("{}: parsed {} nodes", origin, graph.value()->num_nodes());
    return graph;
  } catch (const std::bad_alloc&) {
    return Internal(origin + ": out of memory while parsing");
  } catch (const std::exception& e) {
    return Internal(origin + ": unexpected error while parsing: " + onnx_parser::OneLine(e.what()));
  } catch (...) {
    return Internal(origin + ": unexpected error while parsing");
  }
}

}  // namespace

Result<std::unique_ptr<Graph>> ParseOnnxBytes(const std::string& bytes, const ParseOptions& options,
                                              const std::string& origin) {
  return ParseBuffer(bytes.data(), bytes.size(), options, origin);
}

Result<std::unique_ptr<Graph>> ParseOnnxFile(const std::string& path, const ParseOptions& options) {
  GE_ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path, MappedFile::Paging::kPopulate));
  return ParseBuffer(file->chars(), file->size(), options, path);
}

}  // namespace ge
