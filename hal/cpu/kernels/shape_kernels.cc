// Shape kernels: the views (Reshape, Flatten, Squeeze, Unsqueeze, Identity)
// that only copy bytes, and Expand, Shape, Size, Cast, CastLike,
// ConstantOfShape, Range.
//
// Output shapes are static and given; each Create checks them against the
// inputs and attributes (and the constant shape/axes operands where there
// are some). Views are a memcpy, and nothing when the runtime ran them in
// place (input == output).
#include <cmath>
#include <limits>
#include <type_traits>

#include "cpu_kernels.h"
#include "ge_base/bfloat16.h"
#include "ge_base/range_length.h"
#include "ge_base/float16.h"
#include "ge_base/onnx_dtype.h"
#include "kernels/bf16_convert.h"
#include "kernels/loop_broadcast.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using Dims = std::vector<int64_t>;
using D = DataType;

Result<KernelPtr> CopyKernel(size_t bytes) {
  return MakeKernel([bytes](const void* const* in, void* const* out) {
    if (bytes != 0 && in[0] != out[0]) std::memcpy(out[0], in[0], bytes);
    return Status::Ok();
  });
}

// Same dtype and element count in and out: what every view needs.
Status CheckView(const KernelSpec& spec, size_t max_in) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, max_in, 1, 1));
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  if (x.dtype != y.dtype)
    return Bad(spec, std::string("output dtype ") + DataTypeName(y.dtype) + " differs from input dtype " +
                         DataTypeName(x.dtype));
  if (x.NumElements() != y.NumElements())
    return Bad(spec, "output " + DimsStr(y.dims) + " has a different element count than input " + DimsStr(x.dims));
  return Status::Ok();
}

Status CheckReshape(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckView(spec, 2));
  if (!HasInput(spec, 1) || !spec.ConstInput(1)) return Status::Ok();  // shape computed at run time: counts suffice
  GE_ASSIGN_OR_RETURN(Dims shape, ConstInts(spec, 1, "shape"));
  const Dims& in = spec.inputs[0].dims;
  const bool allowzero = spec.attrs.GetInt("allowzero", 0) != 0;
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowzero) {
      if (i >= in.size()) return Bad(spec, "shape has 0 at " + std::to_string(i) + " beyond the input rank");
      shape[i] = in[i];
    }
    if (shape[i] == -1) {
      if (infer >= 0) return Bad(spec, "shape " + DimsStr(shape) + " has more than one -1");
      infer = static_cast<int64_t>(i);
    } else if (shape[i] < 0) {
      return Bad(spec, "shape " + DimsStr(shape) + " has a negative dim");
    } else {
      known *= shape[i];
    }
  }
  if (infer >= 0) shape[infer] = known == 0 ? 0 : spec.inputs[0].NumElements() / known;
  return CheckOutputDims(spec, 0, shape);
}

Status CheckFlatten(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckView(spec, 1));
  const Dims& in = spec.inputs[0].dims;
  const int64_t r = static_cast<int64_t>(in.size());
  int64_t axis = spec.attrs.GetInt("axis", 1);
  if (axis < -r || axis > r)
    return Bad(spec, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  if (axis < 0) axis += r;
  return CheckOutputDims(spec, 0, {Product(in, 0, axis), Product(in, axis, in.size())});
}

// Squeeze/Unsqueeze axes: input 1 (opset 13) or attr "axes". has = false
// when they come from a non-constant input (then counts are all we check).
Result<std::pair<bool, Dims>> ViewAxes(const KernelSpec& spec) {
  if (HasInput(spec, 1)) {
    if (!spec.ConstInput(1)) return std::make_pair(false, Dims{});
    GE_ASSIGN_OR_RETURN(Dims axes, ConstInts(spec, 1, "axes"));
    return std::make_pair(true, axes);
  }
  return std::make_pair(true, spec.attrs.GetInts("axes"));
}

Status CheckSqueeze(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckView(spec, 2));
  GE_ASSIGN_OR_RETURN(auto axes, ViewAxes(spec));
  if (!axes.first) return Status::Ok();
  const Dims& in = spec.inputs[0].dims;
  const int64_t r = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes.second.empty()) {
    for (size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;
  }
  for (int64_t a : axes.second) {
    GE_ASSIGN_OR_RETURN(int64_t ax, NormalizeAxis(spec, a, r));
    if (in[ax] != 1)
      return Bad(spec, "cannot squeeze axis " + std::to_string(a) + " of size " + std::to_string(in[ax]));
    drop[ax] = true;
  }
  Dims out;
  for (size_t i = 0; i < in.size(); ++i)
    if (!drop[i]) out.push_back(in[i]);
  return CheckOutputDims(spec, 0, out);
}

Status CheckUnsqueeze(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckView(spec, 2));
  GE_ASSIGN_OR_RETURN(auto axes, ViewAxes(spec));
  if (!axes.first) return Status::Ok();
  const Dims& in = spec.inputs[0].dims;
  const int64_t r = static_cast<int64_t>(in.size() + axes.second.size());
  if (axes.second.empty()) return Bad(spec, "axes are required");
  std::vector<bool> added(r, false);
  for (int64_t a : axes.second) {
    GE_ASSIGN_OR_RETURN(int64_t ax, NormalizeAxis(spec, a, r));
    if (added[ax]) return Bad(spec, "axis " + std::to_string(a) + " is repeated");
    added[ax] = true;
  }
  Dims out;
  size_t k = 0;
  for (int64_t i = 0; i < r; ++i) out.push_back(added[i] ? 1 : in[k++]);
  return CheckOutputDims(spec, 0, out);
}

Status CheckIdentity(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckView(spec, 1));
  return CheckOutputDims(spec, 0, spec.inputs[0].dims);
}

void RegisterView(KernelRegistry& r, const char* op, Status (*check)(const KernelSpec&)) {
  r.Register(op, check, [check](const KernelSpec& spec) -> Result<KernelPtr> {
    GE_RETURN_IF_ERROR(check(spec));
    return CopyKernel(spec.inputs[0].Bytes());
  });
}

// ---- Dropout, for inference: the input unchanged and a mask of all true.
// Training mode would need the random stream of the framework that made the
// goldens; it is refused unless training_mode is a constant false.

Status CheckDropout(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 3, 1, 2));
  if (HasInput(spec, 2)) {
    const void* t = spec.ConstInput(2);
    GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[2], "training_mode", {D::kBool}));
    if (!t || *static_cast<const uint8_t*>(t) != 0)
      return NotSupported(spec, "training mode is not supported: ge runs inference only "
                                "(training_mode, input 2, must be a constant false)");
  }
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  if (x.dtype != y.dtype) return Bad(spec, "output dtype differs from input dtype");
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, x.dims));
  if (spec.outputs.size() > 1 && spec.outputs[1].present()) {
    GE_RETURN_IF_ERROR(CheckDtype(spec, spec.outputs[1], "mask", {D::kBool}));
    GE_RETURN_IF_ERROR(CheckOutputDims(spec, 1, x.dims));
  }
  return Status::Ok();
}

Result<KernelPtr> CreateDropout(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckDropout(spec));
  const size_t bytes = spec.inputs[0].Bytes();
  const int64_t mask = spec.outputs.size() > 1 && spec.outputs[1].present() ? spec.outputs[1].NumElements() : -1;
  return MakeKernel([bytes, mask](const void* const* in, void* const* out) {
    if (bytes != 0 && in[0] != out[0]) std::memcpy(out[0], in[0], bytes);
    if (mask > 0) std::memset(out[1], 1, static_cast<size_t>(mask));
    return Status::Ok();
  });
}

// ---- Expand: broadcast the input to the given output dims.

Status CheckExpand(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  if (x.dtype != y.dtype)
    return Bad(spec, std::string("output dtype ") + DataTypeName(y.dtype) + " differs from input dtype " +
                         DataTypeName(x.dtype));
  const size_t size = DataTypeSize(x.dtype);
  if (size != 1 && size != 2 && size != 4 && size != 8)
    return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported");
  Dims want = y.dims;
  if (spec.ConstInput(1)) {
    GE_ASSIGN_OR_RETURN(Dims shape, ConstInts(spec, 1, "shape"));
    GE_ASSIGN_OR_RETURN(want, BroadcastShape(spec, {&x.dims, &shape}));
  }
  GE_ASSIGN_OR_RETURN(Dims reach, BroadcastShape(spec, {&x.dims, &y.dims}));
  if (reach != y.dims)
    return Bad(spec, "input " + DimsStr(x.dims) + " does not broadcast to output " + DimsStr(y.dims));
  return CheckOutputDims(spec, 0, want);
}

template <typename U>
Result<KernelPtr> ExpandKernel(const RowPlan<1>& plan) {
  return MakeKernel([plan](const void* const* in, void* const* out) {
    StridedCopy(plan, static_cast<const U*>(in[0]), static_cast<U*>(out[0]));
    return Status::Ok();
  });
}

Result<KernelPtr> CreateExpand(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckExpand(spec));
  const auto plan = PlanBroadcast<1>({&spec.inputs[0].dims}, spec.outputs[0].dims);
  Result<KernelPtr> k = Internal("unreachable");
  DispatchBySize(DataTypeSize(spec.inputs[0].dtype), [&]<typename U>() { k = ExpandKernel<U>(plan); });
  return k;
}

// ---- Shape and Size: values known at Create, written per run.

Result<Dims> ShapeValues(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.outputs[0], "output", {D::kInt64}));
  const Dims& in = spec.inputs[0].dims;
  const int64_t r = static_cast<int64_t>(in.size());
  auto clamp = [r](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t{0}, r); };  // opset 15 rules
  const int64_t start = clamp(spec.attrs.GetInt("start", 0)), end = clamp(spec.attrs.GetInt("end", r));
  Dims v(in.begin() + start, in.begin() + std::max(start, end));
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, {static_cast<int64_t>(v.size())}));
  return v;
}

Result<Dims> SizeValue(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.outputs[0], "output", {D::kInt64}));
  if (spec.outputs[0].NumElements() != 1)
    return Bad(spec, "output must be a scalar, got " + DimsStr(spec.outputs[0].dims));
  return Dims{spec.inputs[0].NumElements()};
}

void RegisterConstantValues(KernelRegistry& r, const char* op, Result<Dims> (*values)(const KernelSpec&)) {
  r.Register(
      op, [values](const KernelSpec& spec) { return values(spec).status(); },
      [values](const KernelSpec& spec) -> Result<KernelPtr> {
        GE_ASSIGN_OR_RETURN(Dims v, values(spec));
        return MakeKernel([v](const void* const*, void* const* out) {
          if (!v.empty()) std::memcpy(out[0], v.data(), v.size() * sizeof(int64_t));
          return Status::Ok();
        });
      });
}

// ---- Cast.

// The two 16-bit float formats, which cast through float32: float16 rounds
// to nearest even with overflow to infinity (so float64 -> float16 rounds
// twice, which can differ from a direct rounding by one half ulp); bfloat16
// rounds to nearest even, or truncates for models before opset 19, whose
// reference Cast truncated (ge_base/bfloat16.h).
struct HalfFormat {
  static float Load(uint16_t v) { return HalfToFloat(v); }
  static uint16_t Store(float f, bool) { return FloatToHalf(f); }
};
struct BFloat16Format {
  static float Load(uint16_t v) { return BFloat16ToFloat(v); }
  static uint16_t Store(float f, bool truncate) { return FloatToBFloat16(f, truncate); }
};
template <typename T>
concept Float16Format = std::is_same_v<T, HalfFormat> || std::is_same_v<T, BFloat16Format>;
template <typename T>
using Storage = std::conditional_t<Float16Format<T>, uint16_t, T>;

template <typename From, typename To>
Result<KernelPtr> CastKernel(int64_t n, bool truncate) {
  // The mixed-precision boundaries: vector loops (bf16_convert.h).
  if constexpr (std::is_same_v<From, float> && std::is_same_v<To, BFloat16Format>) {
    return MakeKernel([n, truncate](const void* const* in, void* const* out) {
      bf16::FromFloat(static_cast<const float*>(in[0]), static_cast<uint16_t*>(out[0]), n, truncate);
      return Status::Ok();
    });
  } else if constexpr (std::is_same_v<From, BFloat16Format> && std::is_same_v<To, float>) {
    return MakeKernel([n](const void* const* in, void* const* out) {
      bf16::ToFloat(static_cast<const uint16_t*>(in[0]), static_cast<float*>(out[0]), n);
      return Status::Ok();
    });
  }
  return MakeKernel([n, truncate](const void* const* in, void* const* out) {
    const auto* x = static_cast<const Storage<From>*>(in[0]);
    auto* y = static_cast<Storage<To>*>(out[0]);
    ParallelFor(n, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if constexpr (Float16Format<From> || Float16Format<To>) {
          float f;
          if constexpr (Float16Format<From>) f = From::Load(x[i]);
          else f = Convert<float>(x[i]);
          if constexpr (Float16Format<To>) y[i] = To::Store(f, truncate);
          else y[i] = Convert<To>(f);
        } else {
          y[i] = Convert<To>(x[i]);
        }
      }
    });
    return Status::Ok();
  });
}

bool CastHandles(DataType t) {
  return DispatchNumeric(t, []<typename T>() {});
}

// DispatchNumeric plus the 16-bit float formats.
template <typename F>
bool DispatchCastType(DataType dt, F&& f) {
  if (dt == D::kFloat16) {
    f.template operator()<HalfFormat>();
    return true;
  }
  if (dt == D::kBFloat16) {
    f.template operator()<BFloat16Format>();
    return true;
  }
  return DispatchNumeric(dt, f);
}

bool CastTakes(DataType t) {
  return DispatchCastType(t, []<typename T>() {});
}

Status CheckCast(const KernelSpec& spec) {
  const bool like = spec.op == "CastLike";
  GE_RETURN_IF_ERROR(CheckArity(spec, like ? 2 : 1, like ? 2 : 1, 1, 1));
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  DataType to;
  if (like) {
    to = spec.inputs[1].dtype;
  } else {
    if (!spec.attrs.Has("to")) return Bad(spec, "attribute to is required");
    to = DataTypeFromOnnx(spec.attrs.GetInt("to", 0));
    if (to == D::kUndefined)
      return NotSupported(spec,
                          "attribute to=" + std::to_string(spec.attrs.GetInt("to", 0)) + " is not a supported type");
  }
  if (!CastTakes(x.dtype))
    return NotSupported(spec, std::string("input dtype ") + DataTypeName(x.dtype) + " is not supported");
  if (!CastTakes(to))
    return NotSupported(spec, std::string("target dtype ") + DataTypeName(to) + " is not supported");
  if (y.dtype != to)
    return Bad(spec,
               std::string("output dtype ") + DataTypeName(y.dtype) + " differs from the target " + DataTypeName(to));
  return CheckOutputDims(spec, 0, x.dims);
}

Result<KernelPtr> CreateCast(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckCast(spec));
  const DataType from = spec.inputs[0].dtype, to = spec.outputs[0].dtype;
  const int64_t n = spec.inputs[0].NumElements();
  if (from == to) return CopyKernel(spec.inputs[0].Bytes());
  const int64_t opset = spec.attrs.GetInt("_opset", -1);
  const bool truncate = opset >= 0 && opset < 19;
  Result<KernelPtr> k = Internal("unreachable");
  DispatchCastType(from, [&]<typename F>() {
    DispatchCastType(to, [&]<typename T>() { k = CastKernel<F, T>(n, truncate); });
  });
  return k;
}

// ---- ConstantOfShape: fills the output with attr "value" (default 0).

Status CheckConstantOfShape(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[0], "shape", {D::kInt64}));
  if (!CastHandles(spec.outputs[0].dtype))
    return NotSupported(spec, std::string("output dtype ") + DataTypeName(spec.outputs[0].dtype) + " is not supported");
  if (spec.inputs[0].dims.size() != 1) return Bad(spec, "shape must be 1-D");
  if (spec.ConstInput(0)) {
    GE_ASSIGN_OR_RETURN(Dims shape, ConstInts(spec, 0, "shape"));
    GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, shape));
  } else if (spec.inputs[0].dims[0] != static_cast<int64_t>(spec.outputs[0].dims.size())) {
    return Bad(spec, "output rank " + std::to_string(spec.outputs[0].dims.size()) + " differs from the shape length " +
                         std::to_string(spec.inputs[0].dims[0]));
  }
  return Status::Ok();
}

double AttrValue(const Attrs& attrs) {
  auto it = attrs.values().find("value");
  if (it == attrs.values().end()) return 0.0;
  if (auto* d = std::get_if<double>(&it->second)) return *d;
  if (auto* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
  return 0.0;
}

Result<KernelPtr> CreateConstantOfShape(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckConstantOfShape(spec));
  const double value = AttrValue(spec.attrs);
  const int64_t n = spec.outputs[0].NumElements();
  Result<KernelPtr> k = Internal("unreachable");
  DispatchNumeric(spec.outputs[0].dtype, [&]<typename T>() {
    const T v = Convert<T>(value);
    k = MakeKernel([n, v](const void* const*, void* const* out) {
      T* y = static_cast<T*>(out[0]);
      std::fill(y, y + n, v);
      return Status::Ok();
    });
  });
  return k;
}

// ---- Range(start, limit, delta).

template <typename T>
Result<int64_t> RangeCount(const std::string& where, T start, T limit, T delta) {
  if (delta == T(0)) return InvalidArgument(where + ": delta is 0");
  if constexpr (std::is_integral_v<T>) {
    const std::optional<int64_t> n = IntegerRangeLength(start, limit, delta);
    if (!n) return InvalidArgument(where + ": range has too many elements");
    return *n;
  } else {
    const double q = std::ceil((static_cast<double>(limit) - start) / delta);
    if (!(q < 9.0e18)) return InvalidArgument(where + ": range has no finite length");
    return std::max<int64_t>(static_cast<int64_t>(q), 0);
  }
}

Status CheckRange(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 3, 3, 1, 1));
  const DataType t = spec.inputs[0].dtype;
  GE_RETURN_IF_ERROR(
      CheckDtype(spec, spec.inputs[0], "start", {D::kFloat32, D::kFloat64, D::kInt16, D::kInt32, D::kInt64}));
  for (size_t i = 0; i < 3; ++i) {
    if (spec.inputs[i].dtype != t) return Bad(spec, "start, limit and delta must have one dtype");
    if (spec.inputs[i].NumElements() != 1) return Bad(spec, "input " + std::to_string(i) + " must be a scalar");
  }
  if (spec.outputs[0].dtype != t) return Bad(spec, std::string("output dtype must be ") + DataTypeName(t));
  if (spec.outputs[0].dims.size() != 1) return Bad(spec, "output must be 1-D, got " + DimsStr(spec.outputs[0].dims));
  if (!spec.ConstInput(0) || !spec.ConstInput(1) || !spec.ConstInput(2)) return Status::Ok();  // checked per run
  Status s;
  DispatchNumeric(t, [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>)
      return;
    else {
      auto get = [&](size_t i) { return *static_cast<const T*>(spec.ConstInput(i)); };
      auto n = RangeCount<T>(Where(spec), get(0), get(1), get(2));
      s = n.ok() ? CheckOutputDims(spec, 0, {*n}) : n.status();
    }
  });
  return s;
}

template <typename T>
Result<KernelPtr> RangeKernel(const KernelSpec& spec) {
  const int64_t n = spec.outputs[0].dims[0];
  return MakeKernel([n, where = Where(spec)](const void* const* in, void* const* out) -> Status {
    const T start = *static_cast<const T*>(in[0]), limit = *static_cast<const T*>(in[1]),
            delta = *static_cast<const T*>(in[2]);
    GE_ASSIGN_OR_RETURN(int64_t count, RangeCount<T>(where, start, limit, delta));
    if (count != n)
      return InvalidArgument(where + ": the range has " + std::to_string(count) + " elements, the output " +
                             std::to_string(n));
    T* y = static_cast<T*>(out[0]);
    if constexpr (std::is_integral_v<T>) {
      // Stepping stays within [start, limit): i * delta could overflow T.
      T v = start;
      for (int64_t i = 0; i < n; ++i) {
        y[i] = v;
        if (i + 1 < n) v = static_cast<T>(v + delta);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(start + static_cast<T>(i) * delta);
    }
    return Status::Ok();
  });
}

Result<KernelPtr> CreateRange(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckRange(spec));
  switch (spec.inputs[0].dtype) {
    case D::kFloat32:
      return RangeKernel<float>(spec);
    case D::kFloat64:
      return RangeKernel<double>(spec);
    case D::kInt16:
      return RangeKernel<int16_t>(spec);
    case D::kInt32:
      return RangeKernel<int32_t>(spec);
    default:
      return RangeKernel<int64_t>(spec);
  }
}

}  // namespace

void RegisterShapeKernels(KernelRegistry& r) {
  RegisterView(r, "Reshape", CheckReshape);
  RegisterView(r, "Flatten", CheckFlatten);
  RegisterView(r, "Squeeze", CheckSqueeze);
  RegisterView(r, "Unsqueeze", CheckUnsqueeze);
  RegisterView(r, "Identity", CheckIdentity);
  r.Register("Dropout", CheckDropout, CreateDropout);
  r.Register("Expand", CheckExpand, CreateExpand);
  RegisterConstantValues(r, "Shape", ShapeValues);
  RegisterConstantValues(r, "Size", SizeValue);
  // Elementwise: a blocked bf16 <-> f32 Cast at a border of a bf16 region
  // (mixed_precision) converts in place of the layout, no TransData.
  r.Register("Cast", CheckCast, CreateCast, LayoutSupport::kElementwise);
  r.Register("CastLike", CheckCast, CreateCast);
  r.Register("ConstantOfShape", CheckConstantOfShape, CreateConstantOfShape);
  r.Register("Range", CheckRange, CreateRange);
}

}  // namespace ge::hal
