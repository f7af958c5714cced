#include "onnx_text_check.h"

#include <google/protobuf/stubs/common.h>

#include <string>

namespace ge::onnx_parser {
namespace {

// The validator protobuf itself applies to string fields.
bool Utf8(const std::string& s) { return google::protobuf::internal::IsStructurallyValidUTF8(s.data(), static_cast<int>(s.size())); }

Status Bad(const std::string& what) { return InvalidArgument(what + " is not valid UTF-8"); }

}  // namespace

Status CheckUtf8(const onnx::GraphProto& g) {
  if (!Utf8(g.name())) return Bad("the graph's name");
  const std::pair<const char*, const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>*> values[] = {
      {"graph input", &g.input()}, {"graph output", &g.output()}, {"value_info", &g.value_info()}};
  for (const auto& [kind, list] : values)
    for (int i = 0; i < list->size(); ++i)
      if (!Utf8(list->Get(i).name())) return Bad(std::string("the name of ") + kind + " " + std::to_string(i));
  for (int i = 0; i < g.initializer_size(); ++i)
    if (!Utf8(g.initializer(i).name())) return Bad("the name of initializer " + std::to_string(i));
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    const std::string node = "node " + std::to_string(i) + (Utf8(n.op_type()) ? " (" + n.op_type() + ")" : "");
    if (!Utf8(n.op_type()) || !Utf8(n.domain())) return Bad("the op type of " + node);
    if (!Utf8(n.name())) return Bad("the name of " + node);
    for (int k = 0; k < n.input_size(); ++k)
      if (!Utf8(n.input(k))) return Bad("input " + std::to_string(k) + " of " + node);
    for (int k = 0; k < n.output_size(); ++k)
      if (!Utf8(n.output(k))) return Bad("output " + std::to_string(k) + " of " + node);
    for (const auto& a : n.attribute()) {
      if (!Utf8(a.name())) return Bad("an attribute name of " + node);
      bool ok = Utf8(a.s());
      for (const auto& s : a.strings()) ok = ok && Utf8(s);
      if (!ok) return Bad("attribute '" + a.name() + "' of " + node);
      if (a.has_g()) GE_RETURN_IF_ERROR(CheckUtf8(a.g()).Annotated(node));
      for (const auto& sg : a.graphs()) GE_RETURN_IF_ERROR(CheckUtf8(sg).Annotated(node));
    }
  }
  return Status::Ok();
}

}  // namespace ge::onnx_parser
