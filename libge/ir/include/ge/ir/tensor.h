// A constant tensor: description plus bytes. The bytes are shared and
// immutable, so copying a Tensor (and a Graph) is cheap. They are either the
// tensor's own or a view into memory someone else owns (a mapped .om file),
// kept alive by the tensor.
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
  // Views `bytes` bytes at `data` without copying; `owner` keeps them alive.
  Tensor(TensorDesc desc, std::shared_ptr<const void> owner, const void* data, size_t bytes);

  template <typename T>
  static Tensor FromVector(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& values) {
    return Tensor(TensorDesc(dtype, std::move(dims)), values.data(), values.size() * sizeof(T));
  }

  const TensorDesc& desc() const { return desc_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return !owner_; }

  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data()); }
  // Reads integer tensors (any int dtype) as int64; used for shape operands.
  std::vector<int64_t> ToInt64() const;
  // Reads float/int tensors as double; used by tests and folding.
  std::vector<double> ToDouble() const;

 private:
  TensorDesc desc_;
  std::shared_ptr<const void> owner_;  // null: no bytes at all (empty())
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ge
