// Shared plumbing of the own-loop CPU kernels (unary, binary, shape, data
// movement, reduce): spec checks with messages that name the node, axis and
// integer-operand helpers, and a Kernel made from a lambda.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hal/kernel.h"

namespace ge::hal::loop {

// The largest rank any own-loop kernel accepts; fixed-size index arrays of
// this length keep Run free of allocation.
constexpr int kMaxRank = 12;
// Element count from which a loop is split across OpenMP threads; below it
// the fork/join costs more than it saves.
constexpr int64_t kParallelMin = int64_t{1} << 16;

inline std::string Where(const KernelSpec& spec) { return "node " + spec.name + " (" + spec.op + ")"; }

inline std::string DimsStr(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(d[i]);
  }
  return s + "]";
}

inline Status Bad(const KernelSpec& spec, const std::string& msg) { return InvalidArgument(Where(spec) + ": " + msg); }
inline Status NotSupported(const KernelSpec& spec, const std::string& msg) {
  return Unsupported(Where(spec) + ": " + msg);
}

inline bool HasInput(const KernelSpec& spec, size_t i) { return i < spec.inputs.size() && spec.inputs[i].present(); }

inline std::string CountRange(size_t lo, size_t hi) {
  if (hi == SIZE_MAX) return "at least " + std::to_string(lo);
  if (hi == lo) return std::to_string(lo);
  return std::to_string(lo) + ".." + std::to_string(hi);
}

// Input/output counts, presence of the required inputs, static shapes and
// ranks within kMaxRank. With `computed_outputs` output dims may be unknown
// (-1): ops whose output shapes only the computation knows (computed_kernel.h).
inline Status CheckArity(const KernelSpec& spec, size_t min_in, size_t max_in, size_t min_out, size_t max_out,
                         bool computed_outputs = false) {
  if (spec.inputs.size() < min_in || spec.inputs.size() > max_in)
    return Bad(spec, "takes " + CountRange(min_in, max_in) + " inputs, got " + std::to_string(spec.inputs.size()));
  if (spec.outputs.size() < min_out || spec.outputs.size() > max_out)
    return Bad(spec, "takes " + CountRange(min_out, max_out) + " outputs, got " + std::to_string(spec.outputs.size()));
  for (size_t i = 0; i < min_in; ++i)
    if (!spec.inputs[i].present()) return Bad(spec, "input " + std::to_string(i) + " is required");
  auto check = [&](const TensorInfo& t, const char* what, size_t i, bool unknown_ok = false) -> Status {
    if (!t.present()) return Status::Ok();
    if (t.dims.size() > static_cast<size_t>(kMaxRank))
      return NotSupported(spec, std::string(what) + " " + std::to_string(i) + " has rank " +
                                    std::to_string(t.dims.size()) + " (at most " + std::to_string(kMaxRank) + ")");
    for (int64_t d : t.dims)
      if (d < 0 && !(unknown_ok && d == -1))
        return NotSupported(spec,
                            std::string(what) + " " + std::to_string(i) + " has dynamic shape " + DimsStr(t.dims));
    return Status::Ok();
  };
  for (size_t i = 0; i < spec.inputs.size(); ++i) GE_RETURN_IF_ERROR(check(spec.inputs[i], "input", i));
  for (size_t i = 0; i < spec.outputs.size(); ++i) {
    if (!spec.outputs[i].present()) return Bad(spec, "output " + std::to_string(i) + " has no dtype");
    GE_RETURN_IF_ERROR(check(spec.outputs[i], "output", i, computed_outputs));
  }
  return Status::Ok();
}

inline Status CheckDtype(const KernelSpec& spec, const TensorInfo& t, const char* what,
                         std::initializer_list<DataType> allowed) {
  std::string names;
  for (DataType d : allowed) {
    if (t.dtype == d) return Status::Ok();
    if (!names.empty()) names += ", ";
    names += DataTypeName(d);
  }
  return NotSupported(spec,
                      std::string(what) + " dtype " + DataTypeName(t.dtype) + " is not supported (" + names + ")");
}

inline Status CheckOutputDims(const KernelSpec& spec, size_t i, const std::vector<int64_t>& want) {
  if (spec.outputs[i].dims != want)
    return Bad(spec, "output " + std::to_string(i) + " dims " + DimsStr(spec.outputs[i].dims) + " do not match " +
                         DimsStr(want) + " implied by the inputs and attributes");
  return Status::Ok();
}

// axis in [-rank, rank) -> [0, rank).
inline Result<int64_t> NormalizeAxis(const KernelSpec& spec, int64_t axis, int64_t rank, const char* what = "axis") {
  if (axis < -rank || axis >= rank)
    return Bad(spec,
               std::string(what) + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

inline bool IsIndexType(DataType t) { return t == DataType::kInt64 || t == DataType::kInt32; }

// Reads n integers of an i64 or i32 tensor.
inline void ReadInts(const void* p, DataType dt, int64_t n, int64_t* out) {
  if (dt == DataType::kInt64) {
    std::memcpy(out, p, static_cast<size_t>(n) * sizeof(int64_t));
  } else {
    const int32_t* q = static_cast<const int32_t*>(p);
    for (int64_t i = 0; i < n; ++i) out[i] = q[i];
  }
}
inline std::vector<int64_t> ReadInts(const void* p, DataType dt, int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  if (n > 0) ReadInts(p, dt, n, v.data());
  return v;
}

// The compiler's support check passes no constant data (const_inputs
// empty); Create does. A kernel that needs a constant's values defers the
// checks that read them to Create: shape inference has already matched the
// output shape to those values.
inline bool ValuesKnown(const KernelSpec& spec) { return !spec.const_inputs.empty(); }

// Constant integer operand i (axes, pads, repeats, ...) as int64s.
inline Result<std::vector<int64_t>> ConstInts(const KernelSpec& spec, size_t i, const char* what) {
  const TensorInfo& t = spec.inputs[i];
  if (!IsIndexType(t.dtype))
    return NotSupported(spec, std::string(what) + " (input " + std::to_string(i) + ") must be i64 or i32, got " +
                                  DataTypeName(t.dtype));
  if (t.dims.size() > 1) return Bad(spec, std::string(what) + " (input " + std::to_string(i) + ") must be 1-D");
  const void* p = spec.ConstInput(i);
  if (!p) return NotSupported(spec, std::string(what) + " (input " + std::to_string(i) + ") must be a constant");
  return ReadInts(p, t.dtype, t.NumElements());
}

// Row-major strides in elements.
inline std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

inline int64_t Product(const std::vector<int64_t>& d, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end && i < d.size(); ++i) n *= d[i];
  return n;
}

// body(begin, end) over [0, n): one call below kParallelMin, otherwise
// blocks (multiples of 64 elements) spread over the OpenMP threads.
template <typename Body>
inline void ParallelFor(int64_t n, Body&& body) {
  if (n < kParallelMin) {
    if (n > 0) body(int64_t{0}, n);
    return;
  }
  constexpr int64_t kBlock = 16384;
  const int64_t blocks = (n + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < blocks; ++b) body(b * kBlock, std::min(n, (b + 1) * kBlock));
}

// A kernel whose Run is a lambda (captures hold everything Create prepared).
template <typename F>
class FnKernel final : public Kernel {
 public:
  explicit FnKernel(F f) : f_(std::move(f)) {}
  Status Run(const void* const* in, void* const* out) override { return f_(in, out); }

 private:
  F f_;
};

template <typename F>
Result<std::unique_ptr<Kernel>> MakeKernel(F f) {
  return std::unique_ptr<Kernel>(new FnKernel<F>(std::move(f)));
}

// Unsigned integer of an element size: copies of any dtype move these.
template <size_t N>
struct Bits;
template <>
struct Bits<1> {
  using T = uint8_t;
};
template <>
struct Bits<2> {
  using T = uint16_t;
};
template <>
struct Bits<4> {
  using T = uint32_t;
};
template <>
struct Bits<8> {
  using T = uint64_t;
};

// Unsupported unless t's elements are 1, 2, 4 or 8 bytes: the dtypes
// DispatchBySize below moves.
inline Status CheckMovable(const KernelSpec& spec, const TensorInfo& t, const char* what) {
  const size_t size = DataTypeSize(t.dtype);
  if (size == 1 || size == 2 || size == 4 || size == 8) return Status::Ok();
  return NotSupported(spec, std::string(what) + " dtype " + DataTypeName(t.dtype) + " is not supported");
}

// Calls f.template operator()<U>() with U the unsigned type of elem_size
// bytes; false when the size is not 1, 2, 4 or 8.
template <typename F>
bool DispatchBySize(size_t elem_size, F&& f) {
  switch (elem_size) {
    case 1:
      f.template operator()<uint8_t>();
      return true;
    case 2:
      f.template operator()<uint16_t>();
      return true;
    case 4:
      f.template operator()<uint32_t>();
      return true;
    case 8:
      f.template operator()<uint64_t>();
      return true;
    default:
      return false;
  }
}

}  // namespace ge::hal::loop
