#include "tf_layout.h"

#include <cstring>

namespace ge::tf_parser {

std::vector<int64_t> PermuteDims(const std::vector<int64_t>& dims, const std::vector<int64_t>& perm) {
  std::vector<int64_t> out;
  for (int64_t p : perm) out.push_back(dims[static_cast<size_t>(p)]);
  return out;
}

Tensor TransposeTensor(const Tensor& t, const std::vector<int64_t>& perm) {
  const std::vector<int64_t>& dims = t.desc().dims;
  const size_t rank = dims.size();
  const size_t elem = DataTypeSize(t.desc().dtype);
  const std::vector<int64_t> out_dims = PermuteDims(dims, perm);
  // Strides of the input, in elements, read in output-dim order.
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t i = rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * dims[i];
  std::vector<int64_t> strides;
  for (int64_t p : perm) strides.push_back(in_strides[static_cast<size_t>(p)]);
  std::vector<uint8_t> out(t.size());
  std::vector<int64_t> idx(rank, 0);
  const int64_t n = NumElements(out_dims);
  for (int64_t o = 0; o < n; ++o) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i) src += idx[i] * strides[i];
    std::memcpy(out.data() + static_cast<size_t>(o) * elem, t.data() + static_cast<size_t>(src) * elem, elem);
    for (size_t i = rank; i-- > 0;) {
      if (++idx[i] < out_dims[i]) break;
      idx[i] = 0;
    }
  }
  return Tensor(TensorDesc(t.desc().dtype, out_dims), std::move(out));
}

bool DropKeepsLogicalOrder(const std::set<int64_t>& dropped) {
  const bool c_kept = !dropped.count(3);
  const bool spatial_kept = !dropped.count(1) || !dropped.count(2);
  return !(c_kept && spatial_kept);
}

}  // namespace ge::tf_parser
