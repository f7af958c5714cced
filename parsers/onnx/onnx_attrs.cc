#include "onnx_attrs.h"

#include <vector>

#include "onnx_tensor.h"

namespace ge::onnx_parser {

namespace {
using onnx::AttributeProto;

std::string TypeName(AttributeProto::AttributeType t) {
  if (AttributeProto::AttributeType_IsValid(t)) return AttributeProto::AttributeType_Name(t);
  return "type " + std::to_string(static_cast<int>(t));
}
}  // namespace

AttributeProto::AttributeType AttrType(const AttributeProto& a) {
  if (a.has_type() && a.type() != AttributeProto::UNDEFINED) return a.type();
  if (a.has_i()) return AttributeProto::INT;
  if (a.has_f()) return AttributeProto::FLOAT;
  if (a.has_s()) return AttributeProto::STRING;
  if (a.has_t()) return AttributeProto::TENSOR;
  if (a.has_g()) return AttributeProto::GRAPH;
  if (a.ints_size()) return AttributeProto::INTS;
  if (a.floats_size()) return AttributeProto::FLOATS;
  if (a.strings_size()) return AttributeProto::STRINGS;
  if (a.tensors_size()) return AttributeProto::TENSORS;
  if (a.graphs_size()) return AttributeProto::GRAPHS;
  return AttributeProto::UNDEFINED;
}

Result<AttrValue> AttrFromOnnx(const AttributeProto& a, const std::string& node) {
  const std::string what = node + ": attribute '" + a.name() + "'";
  switch (AttrType(a)) {
    case AttributeProto::INT: return AttrValue(static_cast<int64_t>(a.i()));
    case AttributeProto::FLOAT: return AttrValue(a.f());
    case AttributeProto::STRING: return AttrValue(a.s());
    case AttributeProto::INTS: return AttrValue(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    case AttributeProto::FLOATS: return AttrValue(std::vector<float>(a.floats().begin(), a.floats().end()));
    case AttributeProto::STRINGS: return AttrValue(std::vector<std::string>(a.strings().begin(), a.strings().end()));
    case AttributeProto::TENSOR: {
      GE_ASSIGN_OR_RETURN(Tensor t, TensorFromOnnx(a.t(), what));
      return AttrValue(std::move(t));
    }
    case AttributeProto::UNDEFINED: return InvalidArgument(what + " has no value");
    default: return Unsupported(what + " is of kind " + TypeName(AttrType(a)) + ", which ge does not support");
  }
}

Result<Tensor> ConstantNodeValue(const onnx::NodeProto& n, const std::string& node) {
  // The checker makes sure exactly one value attribute is set.
  for (const AttributeProto& a : n.attribute()) {
    const std::string what = node + ": attribute '" + a.name() + "'";
    if (a.name() == "value") return TensorFromOnnx(a.t(), what);
    if (a.name() == "value_float") return Tensor::FromVector(DataType::kFloat32, {}, std::vector<float>{a.f()});
    if (a.name() == "value_int") return Tensor::FromVector(DataType::kInt64, {}, std::vector<int64_t>{a.i()});
    if (a.name() == "value_floats") {
      std::vector<float> v(a.floats().begin(), a.floats().end());
      return Tensor::FromVector(DataType::kFloat32, {static_cast<int64_t>(v.size())}, v);
    }
    if (a.name() == "value_ints") {
      std::vector<int64_t> v(a.ints().begin(), a.ints().end());
      return Tensor::FromVector(DataType::kInt64, {static_cast<int64_t>(v.size())}, v);
    }
    if (a.name() == "sparse_value" || a.name() == "value_string" || a.name() == "value_strings")
      return Unsupported(what + ": sparse and string constants are not supported");
  }
  return InvalidArgument(node + ": Constant has no value attribute");
}

}  // namespace ge::onnx_parser
