// The small kernels a linked control-flow model runs between its label tasks
// (ge/plan/link.h, docs/control-flow.md): they have no node of their own.
// The loader creates them from the linked task's op and argument descs.
//
//   MemcpyAsync    out = in, any dtype (boundary copies, loop state)
//   BranchIndex    out i32 = first element of in != 0 ? 0 : 1 (If's LabelSwitch index)
//   LoopInit       (cond?) -> (iteration i64 = 0, cond bool = cond ? cond : true)
//   LoopCondIndex       (iteration i64, M i64?, cond bool?) -> i32: 0 runs the body, 1 leaves
//   LoopIncrement  iteration -> iteration + 1 (in place)
//   ScanSliceWrite (slice, iteration) -> row `iteration` of the stacked output
//   LoopTripCheck  iteration == attr count, else an error (a scan output's
//                  static length was worked out at compile time)
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

Status Need(const KernelSpec& s, bool ok, const std::string& what) {
  return ok ? Status::Ok() : InvalidArgument("node " + s.name + " (" + s.op + "): " + what);
}

bool IsScalarOf(const TensorInfo& t, DataType d) { return t.dtype == d && t.NumElements() == 1; }

// ---- MemcpyAsync

Status CheckMemcpy(const KernelSpec& s) {
  return Need(s, s.inputs.size() == 1 && s.outputs.size() == 1 && s.inputs[0].Bytes() == s.outputs[0].Bytes(),
              "copies one buffer into one of the same size");
}

Result<std::unique_ptr<Kernel>> CreateMemcpy(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckMemcpy(s));
  const size_t bytes = s.inputs[0].Bytes();
  return loop::MakeKernel([bytes](const void* const* in, void* const* out) -> Status {
    if (bytes && in[0] != out[0]) std::memcpy(out[0], in[0], bytes);
    return Status::Ok();
  });
}

// ---- BranchIndex: any numeric or bool condition, its first element.

bool Truthy(const void* p, DataType d) {
  switch (d) {
    case DataType::kFloat32: return *static_cast<const float*>(p) != 0.0f;
    case DataType::kFloat64: return *static_cast<const double*>(p) != 0.0;
    case DataType::kFloat16:
    case DataType::kBFloat16: return (*static_cast<const uint16_t*>(p) & 0x7fff) != 0;  // +0 and -0 are false
    default: break;
  }
  const size_t n = DataTypeSize(d);
  const auto* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i]) return true;
  return false;
}

Status CheckBranchIndex(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(Need(s, s.inputs.size() == 1 && s.outputs.size() == 1, "takes a condition and gives an index"));
  GE_RETURN_IF_ERROR(Need(s, s.inputs[0].present() && s.inputs[0].NumElements() >= 1 && DataTypeSize(s.inputs[0].dtype) > 0,
                          "the condition has no element"));
  return Need(s, IsScalarOf(s.outputs[0], DataType::kInt32), "the index is an int32 scalar");
}

Result<std::unique_ptr<Kernel>> CreateBranchIndex(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckBranchIndex(s));
  const DataType d = s.inputs[0].dtype;
  return loop::MakeKernel([d](const void* const* in, void* const* out) -> Status {
    *static_cast<int32_t*>(out[0]) = Truthy(in[0], d) ? 0 : 1;
    return Status::Ok();
  });
}

// ---- Loop control

Status CheckLoopInit(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(Need(s, s.inputs.size() == 1 && s.outputs.size() == 2, "takes (cond?) and gives (iteration, cond)"));
  GE_RETURN_IF_ERROR(Need(s, !s.inputs[0].present() || IsScalarOf(s.inputs[0], DataType::kBool), "cond is a bool scalar"));
  return Need(s, IsScalarOf(s.outputs[0], DataType::kInt64) && IsScalarOf(s.outputs[1], DataType::kBool),
              "the state is an int64 iteration and a bool cond");
}

Result<std::unique_ptr<Kernel>> CreateLoopInit(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckLoopInit(s));
  return loop::MakeKernel([](const void* const* in, void* const* out) -> Status {
    *static_cast<int64_t*>(out[0]) = 0;
    *static_cast<bool*>(out[1]) = in[0] ? *static_cast<const bool*>(in[0]) : true;
    return Status::Ok();
  });
}

Status CheckLoopCondIndex(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(Need(s, s.inputs.size() == 3 && s.outputs.size() == 1, "takes (iteration, M?, cond?)"));
  GE_RETURN_IF_ERROR(Need(s, IsScalarOf(s.inputs[0], DataType::kInt64), "the iteration is an int64 scalar"));
  GE_RETURN_IF_ERROR(Need(s, !s.inputs[1].present() || IsScalarOf(s.inputs[1], DataType::kInt64), "M is an int64 scalar"));
  GE_RETURN_IF_ERROR(Need(s, !s.inputs[2].present() || IsScalarOf(s.inputs[2], DataType::kBool), "cond is a bool scalar"));
  GE_RETURN_IF_ERROR(Need(s, s.inputs[1].present() || s.inputs[2].present(), "a loop with neither M nor cond never ends"));
  return Need(s, IsScalarOf(s.outputs[0], DataType::kInt32), "the index is an int32 scalar");
}

Result<std::unique_ptr<Kernel>> CreateLoopCondIndex(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckLoopCondIndex(s));
  return loop::MakeKernel([](const void* const* in, void* const* out) -> Status {
    const int64_t i = *static_cast<const int64_t*>(in[0]);
    const bool stop = (in[1] && i >= *static_cast<const int64_t*>(in[1])) || (in[2] && !*static_cast<const bool*>(in[2]));
    *static_cast<int32_t*>(out[0]) = stop ? 1 : 0;
    return Status::Ok();
  });
}

Status CheckLoopIncrement(const KernelSpec& s) {
  return Need(s, s.inputs.size() == 1 && s.outputs.size() == 1 && IsScalarOf(s.inputs[0], DataType::kInt64) &&
                     IsScalarOf(s.outputs[0], DataType::kInt64),
              "increments an int64 scalar");
}

Result<std::unique_ptr<Kernel>> CreateLoopIncrement(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckLoopIncrement(s));
  return loop::MakeKernel([](const void* const* in, void* const* out) -> Status {
    *static_cast<int64_t*>(out[0]) = *static_cast<const int64_t*>(in[0]) + 1;
    return Status::Ok();
  });
}

Status CheckScanSliceWrite(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(Need(s, s.inputs.size() == 2 && s.outputs.size() == 1, "takes (slice, iteration) and gives the stack"));
  GE_RETURN_IF_ERROR(Need(s, IsScalarOf(s.inputs[1], DataType::kInt64), "the iteration is an int64 scalar"));
  const TensorInfo& stack = s.outputs[0];
  return Need(s, !stack.dims.empty() && stack.dtype == s.inputs[0].dtype &&
                     std::vector<int64_t>(stack.dims.begin() + 1, stack.dims.end()) == s.inputs[0].dims,
              "the stack is [rows, slice...] of the slice's dtype");
}

Result<std::unique_ptr<Kernel>> CreateScanSliceWrite(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckScanSliceWrite(s));
  const size_t bytes = s.inputs[0].Bytes();
  const int64_t rows = s.outputs[0].dims[0];
  const std::string name = s.name;
  return loop::MakeKernel([bytes, rows, name](const void* const* in, void* const* out) -> Status {
    const int64_t i = *static_cast<const int64_t*>(in[1]);
    if (i < 0 || i >= rows)
      return Internal("node " + name + " (ScanSliceWrite): iteration " + std::to_string(i) +
                        " is past the scan output's " + std::to_string(rows) + " rows");
    if (bytes) std::memcpy(static_cast<uint8_t*>(out[0]) + static_cast<size_t>(i) * bytes, in[0], bytes);
    return Status::Ok();
  });
}

Status CheckLoopTripCheck(const KernelSpec& s) {
  return Need(s, s.inputs.size() == 1 && s.outputs.empty() && IsScalarOf(s.inputs[0], DataType::kInt64) &&
                     s.attrs.GetInt("count", -1) >= 0,
              "checks an int64 iteration against attr count");
}

Result<std::unique_ptr<Kernel>> CreateLoopTripCheck(const KernelSpec& s) {
  GE_RETURN_IF_ERROR(CheckLoopTripCheck(s));
  const int64_t count = s.attrs.GetInt("count", -1);
  const std::string name = s.name;
  return loop::MakeKernel([count, name](const void* const* in, void* const*) -> Status {
    const int64_t i = *static_cast<const int64_t*>(in[0]);
    if (i != count)
      return Internal("node " + name + " (Loop): ran " + std::to_string(i) + " iterations; its scan outputs were planned for " +
                        std::to_string(count));
    return Status::Ok();
  });
}

}  // namespace

void RegisterControlKernels(KernelRegistry& r) {
  r.Register("ScanSliceWrite", CheckScanSliceWrite, CreateScanSliceWrite);
  r.Register("LoopTripCheck", CheckLoopTripCheck, CreateLoopTripCheck);
  r.Register("MemcpyAsync", CheckMemcpy, CreateMemcpy);
  r.Register("BranchIndex", CheckBranchIndex, CreateBranchIndex);
  r.Register("LoopInit", CheckLoopInit, CreateLoopInit);
  r.Register("LoopCondIndex", CheckLoopCondIndex, CreateLoopCondIndex);
  r.Register("LoopIncrement", CheckLoopIncrement, CreateLoopIncrement);
}

}  // namespace ge::hal
