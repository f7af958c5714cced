#include "onnx_tensor.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/constant_elements.h"
#include "ge_base/checked_math.h"

namespace ge::onnx_parser {

namespace {

using onnx::TensorProto;

// Copies a repeated typed field into bytes, converting each value to T (ONNX
// stores narrow ints, bool and 16-bit floats widened in int32_data, u32 in
// uint64_data).
template <typename T, typename Field>
std::vector<uint8_t> NarrowCopy(const Field& field) {
  std::vector<uint8_t> out(static_cast<size_t>(field.size()) * sizeof(T));
  for (int i = 0; i < field.size(); ++i) {
    const T v = static_cast<T>(field.Get(i));
    std::memcpy(out.data() + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
  }
  return out;
}

// The repeated field that holds a dtype's values when raw_data is not used.
struct TypedField {
  const char* field = "";
  int64_t count = 0;
};

TypedField TypedFieldOf(const TensorProto& t, DataType dtype) {
  switch (dtype) {
    case DataType::kFloat32: return {"float_data", t.float_data_size()};
    case DataType::kFloat64: return {"double_data", t.double_data_size()};
    case DataType::kInt64: return {"int64_data", t.int64_data_size()};
    case DataType::kUInt32:
    case DataType::kUInt64: return {"uint64_data", t.uint64_data_size()};
    default: return {"int32_data", t.int32_data_size()};  // narrow ints, bool, 16-bit floats
  }
}

std::vector<TypedField> AllTypedFields(const TensorProto& t) {
  return {{"float_data", t.float_data_size()},   {"double_data", t.double_data_size()},
          {"int32_data", t.int32_data_size()},   {"int64_data", t.int64_data_size()},
          {"uint64_data", t.uint64_data_size()}, {"string_data", t.string_data_size()}};
}

std::vector<uint8_t> DecodeTypedField(const TensorProto& t, DataType dtype) {
  switch (dtype) {
    case DataType::kFloat32: return NarrowCopy<float>(t.float_data());
    case DataType::kFloat64: return NarrowCopy<double>(t.double_data());
    case DataType::kInt64: return NarrowCopy<int64_t>(t.int64_data());
    case DataType::kInt32: return NarrowCopy<int32_t>(t.int32_data());
    case DataType::kInt16: return NarrowCopy<int16_t>(t.int32_data());
    case DataType::kInt8: return NarrowCopy<int8_t>(t.int32_data());
    case DataType::kUInt16: return NarrowCopy<uint16_t>(t.int32_data());
    case DataType::kUInt8:
    case DataType::kBool: return NarrowCopy<uint8_t>(t.int32_data());
    // 16-bit floats travel as their bit patterns in the low half of int32_data.
    case DataType::kFloat16:
    case DataType::kBFloat16: return NarrowCopy<uint16_t>(t.int32_data());
    case DataType::kUInt32: return NarrowCopy<uint32_t>(t.uint64_data());
    case DataType::kUInt64: return NarrowCopy<uint64_t>(t.uint64_data());
    default: return {};
  }
}

}  // namespace

std::string OnnxElemTypeName(int32_t t) {
  if (onnx::TensorProto_DataType_IsValid(t))
    return onnx::TensorProto_DataType_Name(static_cast<TensorProto::DataType>(t));
  return "type " + std::to_string(t);
}

TensorDesc TensorDescFromType(const onnx::TypeProto& type) {
  if (!type.has_tensor_type()) return TensorDesc(DataType::kUndefined, {kUnknownRank});
  const auto& tt = type.tensor_type();
  TensorDesc desc(DataTypeFromOnnx(tt.elem_type()), {kUnknownRank});
  if (!tt.has_shape()) return desc;
  desc.dims.clear();
  for (const auto& d : tt.shape().dim())
    desc.dims.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : kUnknownDim);
  return desc;
}

bool HasExternalData(const TensorProto& t) {
  return t.has_data_location() && t.data_location() == TensorProto::EXTERNAL;
}

Status CheckTensorData(const TensorProto& t, const std::string& what) {
  if (HasExternalData(t)) return Unsupported(what + " stores its data in an external file, which ge does not read yet");
  if (t.has_segment()) return Unsupported(what + " is a segment of a larger tensor, which ge does not support");
  const DataType dtype = DataTypeFromOnnx(t.data_type());
  if (dtype == DataType::kUndefined)
    return Unsupported(what + " has element type " + OnnxElemTypeName(t.data_type()) + ", which ge cannot hold");
  const std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  const size_t elem = DataTypeSize(dtype);
  GE_ASSIGN_OR_RETURN(int64_t n, parser_common::CheckedNumElements(dims, dtype, what));
  const TensorDesc desc(dtype, dims);
  if (t.has_raw_data()) {
    const uint64_t need = static_cast<uint64_t>(n) * elem;
    if (t.raw_data().size() != need)
      return Corrupt(what + ": " + std::to_string(t.raw_data().size()) + " bytes of raw_data, but " + desc.ToString() +
                     " needs " + std::to_string(need));
    return Status::Ok();
  }
  const TypedField f = TypedFieldOf(t, dtype);
  if (f.count == n) return Status::Ok();
  if (f.count == 0 && n > 0) {
    // Values in another field: name both, the usual exporter bug.
    for (const TypedField& other : AllTypedFields(t))
      if (other.count > 0)
        return Corrupt(what + ": " + desc.ToString() + " keeps its values in " + f.field + ", but the file has " +
                       std::to_string(other.count) + " in " + other.field);
  }
  return Corrupt(what + ": " + std::to_string(f.count) + " values in " + f.field + ", but " + desc.ToString() +
                 " needs " + std::to_string(n));
}

Result<Tensor> TensorFromOnnx(const TensorProto& t, const std::string& what) {
  GE_RETURN_IF_ERROR(CheckTensorData(t, what));
  const DataType dtype = DataTypeFromOnnx(t.data_type());
  TensorDesc desc(dtype, std::vector<int64_t>(t.dims().begin(), t.dims().end()));
  // raw_data is little-endian, like every machine ge runs on.
  if (t.has_raw_data()) return Tensor(std::move(desc), t.raw_data().data(), t.raw_data().size());
  return Tensor(std::move(desc), DecodeTypedField(t, dtype));
}

}  // namespace ge::onnx_parser
