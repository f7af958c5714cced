// The ops with memory semantics (libge/ops/ops_memory.cc):
//
//   Variable       out = init (each run starts from the initial value)
//   Assign         out = value; out is the variable's memory (reference output)
//   AssignAdd      out = variable + value, over the variable's memory
//   ScatterAdd     out[rows, ...] = acc (or 0), then out[indices[k]] += updates[k]
//   AtomicAddrClean  every output = 0
//   HcomAllReduce  one rank: the reduction of one tensor is the tensor, in place
//   HcomBroadcast  one rank: the root's tensor is the tensor, in place
//
// The memory plan gives a reference output its input's address, so the
// copies below are skipped when in and out are one buffer. ScatterAdd is
// atomic in the registry (the output must start at zero): with a third input
// (the AtomicAddrClean node's zeroed memory, which the plan makes its output
// buffer) it accumulates into it, copying first only where a runtime gave
// the output memory of its own (v2); without one it zeroes its output.
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

// out = input `src`, same bytes; a no-op when they are one buffer.
Status CheckCopyOf(const KernelSpec& s, size_t inputs, size_t src) {
  GE_RETURN_IF_ERROR(CheckArity(s, inputs, inputs, 1, 1));
  const TensorInfo &in = s.inputs[src], &out = s.outputs[0];
  if (in.dtype != out.dtype || in.dims != out.dims)
    return Bad(s, "output " + DimsStr(out.dims) + " must be input " + std::to_string(src) + " " + DimsStr(in.dims));
  if (inputs == 2 && s.inputs[0].Bytes() != s.inputs[1].Bytes())
    return Bad(s, "the value " + DimsStr(s.inputs[1].dims) + " does not match the variable " + DimsStr(s.inputs[0].dims));
  return Status::Ok();
}

KernelPtr CopyOf(size_t src, size_t bytes) {
  return MakeKernel([src, bytes](const void* const* in, void* const* out) -> Status {
                        if (bytes && in[src] != out[0]) std::memmove(out[0], in[src], bytes);
                        return Status::Ok();
                      })
      .value();
}

void RegisterCopy(KernelRegistry& r, const char* op, size_t inputs, size_t src) {
  r.Register(
      op, [inputs, src](const KernelSpec& s) { return CheckCopyOf(s, inputs, src); },
      [inputs, src](const KernelSpec& s) -> Result<KernelPtr> {
        GE_RETURN_IF_ERROR(CheckCopyOf(s, inputs, src));
        return CopyOf(src, s.outputs[0].Bytes());
      },
      LayoutSupport::kElementwise);
}

// ---- AssignAdd

Status CheckAssignAdd(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckCopyOf(s, 2, 0));
  if (s.inputs[1].dtype != s.inputs[0].dtype || s.inputs[1].dims != s.inputs[0].dims)
    return Bad(s, "the value must have the variable's dtype and dims");
  if (s.inputs[0].dtype == DataType::kBool || !DispatchNumeric(s.inputs[0].dtype, []<typename>() {}))
    return NotSupported(s, std::string("dtype ") + DataTypeName(s.inputs[0].dtype) + " is not supported");
  return Status::Ok();
}

Result<KernelPtr> CreateAssignAdd(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckAssignAdd(s));
  const int64_t n = s.inputs[0].NumElements();
  Result<KernelPtr> k = Internal("unreachable");
  DispatchNumeric(s.inputs[0].dtype, [&]<typename T>() {
    k = MakeKernel([n](const void* const* in, void* const* out) -> Status {
      const T* a = static_cast<const T*>(in[0]);
      const T* b = static_cast<const T*>(in[1]);
      T* y = static_cast<T*>(out[0]);
      for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(a[i] + b[i]);
      return Status::Ok();
    });
  });
  return k;
}

// ---- ScatterAdd(indices [K], updates [K, d...]) -> [rows, d...]

Status CheckScatterAdd(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckArity(s, 2, 3, 1, 1));
  const TensorInfo &idx = s.inputs[0], &upd = s.inputs[1], &out = s.outputs[0];
  if (s.inputs.size() == 3 && (s.inputs[2].dtype != out.dtype || s.inputs[2].dims != out.dims))
    return Bad(s, "the accumulator " + DimsStr(s.inputs[2].dims) + " must be the output " + DimsStr(out.dims));
  if (!IsIndexType(idx.dtype)) return NotSupported(s, "indices must be i64 or i32");
  if (idx.dims.size() != 1 || upd.dims.empty() || upd.dims[0] != idx.dims[0])
    return Bad(s, "indices " + DimsStr(idx.dims) + " and updates " + DimsStr(upd.dims) + " must share their first dim");
  if (out.dtype != upd.dtype || out.dims.size() != upd.dims.size() ||
      !std::equal(out.dims.begin() + 1, out.dims.end(), upd.dims.begin() + 1))
    return Bad(s, "output " + DimsStr(out.dims) + " must be updates " + DimsStr(upd.dims) + " with another first dim");
  if (upd.dtype == DataType::kBool || !DispatchNumeric(upd.dtype, []<typename>() {}))
    return NotSupported(s, std::string("dtype ") + DataTypeName(upd.dtype) + " is not supported");
  return Status::Ok();
}

Result<KernelPtr> CreateScatterAdd(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckScatterAdd(s));
  const TensorInfo &idx = s.inputs[0], &out = s.outputs[0];
  const int64_t k_count = idx.dims[0], rows = out.dims[0];
  const int64_t row = rows ? out.NumElements() / rows : 0;
  const bool i64 = idx.dtype == DataType::kInt64;
  const bool accumulate = s.inputs.size() == 3;
  const size_t bytes = out.Bytes();
  const std::string where = Where(s);
  Result<KernelPtr> k = Internal("unreachable");
  DispatchNumeric(out.dtype, [&]<typename T>() {
    k = MakeKernel([=](const void* const* in, void* const* o) -> Status {
      T* y = static_cast<T*>(o[0]);
      const T* u = static_cast<const T*>(in[1]);
      if (!accumulate && bytes) std::memset(y, 0, bytes);
      if (accumulate && bytes && in[2] != o[0]) std::memcpy(y, in[2], bytes);
      for (int64_t e = 0; e < k_count; ++e) {
        const int64_t r = i64 ? static_cast<const int64_t*>(in[0])[e] : static_cast<const int32_t*>(in[0])[e];
        if (r < 0 || r >= rows)
          return InvalidArgument(where + ": index " + std::to_string(r) + " is outside [0, " + std::to_string(rows) + ")");
        for (int64_t j = 0; j < row; ++j) y[r * row + j] = static_cast<T>(y[r * row + j] + u[e * row + j]);
      }
      return Status::Ok();
    });
  });
  return k;
}

// ---- AtomicAddrClean() -> zeroed outputs

Status CheckAtomicAddrClean(const KernelSpec& s) {
  if (!s.inputs.empty() || s.outputs.empty()) return Bad(s, "takes no inputs and has at least one output");
  return Status::Ok();
}

Result<KernelPtr> CreateAtomicAddrClean(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckAtomicAddrClean(s));
  std::vector<size_t> bytes;
  for (const TensorInfo& o : s.outputs) bytes.push_back(o.Bytes());
  return MakeKernel([bytes](const void* const*, void* const* out) -> Status {
    for (size_t i = 0; i < bytes.size(); ++i)
      if (bytes[i]) std::memset(out[i], 0, bytes[i]);
    return Status::Ok();
  });
}

}  // namespace

void RegisterMemoryKernels(KernelRegistry& r) {
  RegisterCopy(r, "Variable", 1, 0);
  RegisterCopy(r, "Assign", 2, 1);
  RegisterCopy(r, "HcomAllReduce", 1, 0);
  RegisterCopy(r, "HcomBroadcast", 1, 0);
  r.Register("AssignAdd", CheckAssignAdd, CreateAssignAdd, LayoutSupport::kElementwise);
  r.Register("ScatterAdd", CheckScatterAdd, CreateScatterAdd);
  r.Register("AtomicAddrClean", CheckAtomicAddrClean, CreateAtomicAddrClean);
}

}  // namespace ge::hal
