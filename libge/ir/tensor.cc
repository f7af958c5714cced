#include "ge/ir/tensor.h"

#include <cstring>

#include "ge_base/bfloat16.h"
#include "ge_base/float16.h"

namespace ge {

Tensor::Tensor(TensorDesc desc, const void* data, size_t bytes)
    : Tensor(std::move(desc), std::vector<uint8_t>(static_cast<const uint8_t*>(data),
                                                   static_cast<const uint8_t*>(data) + bytes)) {}

Tensor::Tensor(TensorDesc desc, std::vector<uint8_t> bytes) : desc_(std::move(desc)) {
  auto owned = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  data_ = owned->data();
  size_ = owned->size();
  owner_ = std::move(owned);
}

Tensor::Tensor(TensorDesc desc, std::shared_ptr<const void> owner, const void* data, size_t bytes)
    : desc_(std::move(desc)), owner_(std::move(owner)), data_(static_cast<const uint8_t*>(data)), size_(bytes) {}

namespace {
template <typename Out>
std::vector<Out> Convert(const Tensor& t) {
  const int64_t n = static_cast<int64_t>(t.size() / std::max<size_t>(1, DataTypeSize(t.desc().dtype)));
  std::vector<Out> out(static_cast<size_t>(n));
  const uint8_t* p = t.data();
  for (int64_t i = 0; i < n; ++i) {
    switch (t.desc().dtype) {
#define GE_CASE(DT, T)                                \
  case DataType::DT: {                                \
    T v;                                              \
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));    \
    out[i] = static_cast<Out>(v);                     \
    break;                                            \
  }
      GE_CASE(kFloat32, float)
      GE_CASE(kFloat64, double)
      GE_CASE(kInt8, int8_t)
      GE_CASE(kInt16, int16_t)
      GE_CASE(kInt32, int32_t)
      GE_CASE(kInt64, int64_t)
      GE_CASE(kUInt8, uint8_t)
      GE_CASE(kUInt16, uint16_t)
      GE_CASE(kUInt32, uint32_t)
      GE_CASE(kUInt64, uint64_t)
      GE_CASE(kBool, uint8_t)
#undef GE_CASE
      case DataType::kFloat16: {
        uint16_t h;
        std::memcpy(&h, p + i * 2, 2);
        out[i] = static_cast<Out>(HalfToFloat(h));
        break;
      }
      case DataType::kBFloat16: {
        uint16_t h;
        std::memcpy(&h, p + i * 2, 2);
        out[i] = static_cast<Out>(BFloat16ToFloat(h));
        break;
      }
      default:
        out[i] = Out{};
    }
  }
  return out;
}
}  // namespace

std::vector<int64_t> Tensor::ToInt64() const { return Convert<int64_t>(*this); }
std::vector<double> Tensor::ToDouble() const { return Convert<double>(*this); }

}  // namespace ge
