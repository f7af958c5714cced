#include "tf_tensor.h"

#include <algorithm>
#include <cstring>

#include "common/constant_elements.h"
#include "ge_base/checked_math.h"

namespace ge::tf_parser {

namespace {

// Copies `count` values of a repeated field as T into `n` elements, repeating
// the last value (TF's rule) or leaving zeros when there are none.
template <typename T, typename Field>
std::vector<uint8_t> FillFrom(const Field& field, int64_t n) {
  std::vector<uint8_t> out(static_cast<size_t>(n) * sizeof(T), 0);
  const int64_t count = field.size();
  if (count == 0) return out;
  for (int64_t i = 0; i < n; ++i) {
    const T v = static_cast<T>(field.Get(static_cast<int>(std::min(i, count - 1))));
    std::memcpy(out.data() + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
  }
  return out;
}

// The typed field that holds `dtype`'s values: its name and size.
std::pair<const char*, int64_t> TypedField(const tf::TensorProto& t, DataType dtype) {
  switch (dtype) {
    case DataType::kFloat32: return {"float_val", t.float_val_size()};
    case DataType::kFloat64: return {"double_val", t.double_val_size()};
    case DataType::kInt64: return {"int64_val", t.int64_val_size()};
    case DataType::kBool: return {"bool_val", t.bool_val_size()};
    case DataType::kFloat16:
    case DataType::kBFloat16: return {"half_val", t.half_val_size()};
    case DataType::kUInt32: return {"uint32_val", t.uint32_val_size()};
    case DataType::kUInt64: return {"uint64_val", t.uint64_val_size()};
    default: return {"int_val", t.int_val_size()};  // int32, int16, int8, uint8, uint16
  }
}

std::vector<uint8_t> DecodeTyped(const tf::TensorProto& t, DataType dtype, int64_t n) {
  switch (dtype) {
    case DataType::kFloat32: return FillFrom<float>(t.float_val(), n);
    case DataType::kFloat64: return FillFrom<double>(t.double_val(), n);
    case DataType::kInt64: return FillFrom<int64_t>(t.int64_val(), n);
    case DataType::kInt32: return FillFrom<int32_t>(t.int_val(), n);
    case DataType::kInt16: return FillFrom<int16_t>(t.int_val(), n);
    case DataType::kInt8: return FillFrom<int8_t>(t.int_val(), n);
    case DataType::kUInt8: return FillFrom<uint8_t>(t.int_val(), n);
    case DataType::kUInt16: return FillFrom<uint16_t>(t.int_val(), n);
    case DataType::kBool: return FillFrom<uint8_t>(t.bool_val(), n);
    // 16-bit floats travel as their bit patterns in the low half of half_val.
    case DataType::kFloat16:
    case DataType::kBFloat16: return FillFrom<uint16_t>(t.half_val(), n);
    case DataType::kUInt32: return FillFrom<uint32_t>(t.uint32_val(), n);
    case DataType::kUInt64: return FillFrom<uint64_t>(t.uint64_val(), n);
    default: return {};
  }
}

}  // namespace

DataType DataTypeFromTf(int t) {
  switch (t) {
    case tf::DT_FLOAT: return DataType::kFloat32;
    case tf::DT_DOUBLE: return DataType::kFloat64;
    case tf::DT_HALF: return DataType::kFloat16;
    case tf::DT_BFLOAT16: return DataType::kBFloat16;
    case tf::DT_INT8: return DataType::kInt8;
    case tf::DT_INT16: return DataType::kInt16;
    case tf::DT_INT32: return DataType::kInt32;
    case tf::DT_INT64: return DataType::kInt64;
    case tf::DT_UINT8: return DataType::kUInt8;
    case tf::DT_UINT16: return DataType::kUInt16;
    case tf::DT_UINT32: return DataType::kUInt32;
    case tf::DT_UINT64: return DataType::kUInt64;
    case tf::DT_BOOL: return DataType::kBool;
    default: return DataType::kUndefined;
  }
}

std::string TfDataTypeName(int t) {
  if (tf::DataType_IsValid(t)) return tf::DataType_Name(static_cast<tf::DataType>(t));
  return "type " + std::to_string(t);
}

Result<std::vector<int64_t>> DimsFromTfShape(const tf::TensorShapeProto& shape, const std::string& what) {
  if (shape.unknown_rank()) return std::vector<int64_t>{kUnknownRank};
  std::vector<int64_t> dims;
  for (const auto& d : shape.dim()) {
    if (d.size() < -1) return Corrupt(what + ": dimension " + std::to_string(d.size()) + " is not a size");
    dims.push_back(d.size());
  }
  return dims;
}

Result<Tensor> TensorFromTf(const tf::TensorProto& t, const std::string& what) {
  const DataType dtype = DataTypeFromTf(t.dtype());
  if (dtype == DataType::kUndefined)
    return Unsupported(what + " has element type " + TfDataTypeName(t.dtype()) + ", which ge cannot hold");
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, DimsFromTfShape(t.tensor_shape(), what));
  if (dims.size() == 1 && dims[0] == kUnknownRank) return Corrupt(what + ": a constant must have a known rank");
  const size_t elem = DataTypeSize(dtype);
  GE_ASSIGN_OR_RETURN(int64_t n, parser_common::CheckedNumElements(dims, dtype, what));
  TensorDesc desc(dtype, dims);
  if (!t.tensor_content().empty()) {
    const uint64_t need = static_cast<uint64_t>(n) * elem;
    if (t.tensor_content().size() != need)
      return Corrupt(what + ": " + std::to_string(t.tensor_content().size()) + " bytes of tensor_content, but " +
                     desc.ToString() + " needs " + std::to_string(need));
    // tensor_content is little-endian, like every machine ge runs on.
    return Tensor(std::move(desc), t.tensor_content().data(), t.tensor_content().size());
  }
  const auto [field, count] = TypedField(t, dtype);
  if (count > n)
    return Corrupt(what + ": " + std::to_string(count) + " values in " + field + ", but " + desc.ToString() +
                   " holds only " + std::to_string(n));
  // Only tensor_content may be that large; a few values must not make us fill gigabytes.
  if (static_cast<uint64_t>(n) * elem > (uint64_t{1} << 30))
    return Corrupt(what + ": " + desc.ToString() + " filled from " + std::to_string(count) + " values exceeds 1 GiB");
  return Tensor(std::move(desc), DecodeTyped(t, dtype, n));
}

}  // namespace ge::tf_parser
