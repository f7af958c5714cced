// The one checked size of a tensor: every allocation sized by dims goes
// through TensorBytes, so a hostile or run-time shape (a negative dim, a
// product that wraps, 2^61 x 2 floats) becomes an error naming the shape,
// never a small or negative byte count that a kernel then writes past.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ge_base/dtype.h"
#include "ge_base/status.h"

namespace ge {

// No tensor may be larger than this: 2^46 bytes (64 TiB) is half of the
// x86-64 user address space, so anything above it can never be allocated
// and sums of a few such sizes still cannot wrap.
constexpr int64_t kMaxTensorBytes = int64_t{1} << 46;

// Element count of `dims` ({} is a scalar: 1; a 0 dim gives 0, which is
// legal). kInvalidArgument for a negative dim or a product that does not
// fit in int64; the message names the shape.
Result<int64_t> CheckedElementCount(const std::vector<int64_t>& dims);

// Bytes of a `dtype` tensor of `dims`: CheckedElementCount times the
// element size, refused above kMaxTensorBytes. Zero-sized tensors are 0.
Result<size_t> TensorBytes(const std::vector<int64_t>& dims, DataType dtype);

}  // namespace ge
