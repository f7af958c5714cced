#include "ge_base/dtype.h"

#include "ge_base/checked_math.h"

#include <cstring>

namespace ge {

namespace {
struct DtypeInfo {
  DataType type;
  size_t size;
  const char* name;
};
constexpr DtypeInfo kInfos[] = {
    {DataType::kUndefined, 0, "undef"}, {DataType::kFloat32, 4, "f32"}, {DataType::kFloat16, 2, "f16"},
    {DataType::kBFloat16, 2, "bf16"},   {DataType::kFloat64, 8, "f64"}, {DataType::kInt8, 1, "i8"},
    {DataType::kInt16, 2, "i16"},       {DataType::kInt32, 4, "i32"},   {DataType::kInt64, 8, "i64"},
    {DataType::kUInt8, 1, "u8"},        {DataType::kUInt16, 2, "u16"},  {DataType::kUInt32, 4, "u32"},
    {DataType::kUInt64, 8, "u64"},      {DataType::kBool, 1, "bool"},
};
const DtypeInfo* Find(DataType t) {
  for (const auto& i : kInfos)
    if (i.type == t) return &i;
  return nullptr;
}
}  // namespace

size_t DataTypeSize(DataType t) {
  const DtypeInfo* i = Find(t);
  return i ? i->size : 0;
}

const char* DataTypeName(DataType t) {
  const DtypeInfo* i = Find(t);
  return i ? i->name : "invalid";
}

DataType DataTypeFromName(const std::string& name) {
  for (const auto& i : kInfos)
    if (name == i.name) return i.type;
  return DataType::kUndefined;
}

bool IsFloatingPoint(DataType t) {
  return t == DataType::kFloat32 || t == DataType::kFloat16 || t == DataType::kBFloat16 || t == DataType::kFloat64;
}

int64_t NumElements(const std::vector<int64_t>& dims) {
  bool empty = false;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    empty |= d == 0;
  }
  // Counted as CheckedElementCount counts: any 0 dim is an empty tensor.
  return empty ? 0 : CheckedProduct(dims).value_or(-1);
}

}  // namespace ge
