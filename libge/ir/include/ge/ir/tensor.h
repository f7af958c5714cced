// A constant tensor: description plus bytes. The bytes are shared and
// immutable, so copying a Tensor (and a Graph) is cheap.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

#include "ge/ir/tensor_desc.h"

namespace ge {

class Tensor {
 public:
  Tensor() = default;
  // Copies `bytes` bytes from `data`; bytes must equal desc.Bytes().
  Tensor(TensorDesc desc, const void* data, size_t bytes);
  Tensor(TensorDesc desc, std::vector<uint8_t> bytes);

  template <typename T>
  static Tensor FromVector(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& values) {
    return Tensor(TensorDesc(dtype, std::move(dims)), values.data(), values.size() * sizeof(T));
  }

  const TensorDesc& desc() const { return desc_; }
  const uint8_t* data() const { return bytes_ ? bytes_->data() : nullptr; }
  size_t size() const { return bytes_ ? bytes_->size() : 0; }
  bool empty() const { return !bytes_; }

  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data()); }
  // Reads integer tensors (any int dtype) as int64; used for shape operands.
  std::vector<int64_t> ToInt64() const;
  // Reads float/int tensors as double; used by tests and folding.
  std::vector<double> ToDouble() const;

 private:
  TensorDesc desc_;
  std::shared_ptr<const std::vector<uint8_t>> bytes_;
};

}  // namespace ge
