// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear: float32 <->
// u8/i8 (i32 too for Dequantize) by a scale and zero point that are one value
// or one per slice of `axis`. Quantizing divides by the scale, rounds half to
// even and saturates, as ONNX's reference and onnxruntime do.
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"
#include "kernels/quant_util.h"

namespace ge::hal {
namespace {

using namespace loop;
using quant::Saturate;
using KernelPtr = std::unique_ptr<Kernel>;
using D = DataType;

// x viewed as [outer, n, inner] along the axis of per-axis parameters; n = 1
// (and inner = all) when every parameter holds one value.
struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
};

Result<AxisView> PlanLinear(const KernelSpec& spec, D out_dtype) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 3, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[1], "scale", {D::kFloat32}));
  if (spec.outputs[0].dtype != out_dtype)
    return Bad(spec, std::string("output dtype must be ") + DataTypeName(out_dtype));
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, x.dims));
  // A 1-D scale of several values is per axis; one value (any shape) per tensor.
  AxisView v{1, 1, x.NumElements()};
  if (spec.inputs[1].dims.size() == 1 && spec.inputs[1].NumElements() != 1) {
    if (x.dims.empty()) return Bad(spec, "a scalar input takes one scale");
    GE_ASSIGN_OR_RETURN(int64_t axis,
                        NormalizeAxis(spec, spec.attrs.GetInt("axis", 1), static_cast<int64_t>(x.dims.size())));
    v = {Product(x.dims, 0, static_cast<size_t>(axis)), x.dims[axis], Product(x.dims, axis + 1, x.dims.size())};
  }
  GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 1, v.n, "scale"));
  GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 2, v.n, "zero point"));
  return v;
}

Result<KernelPtr> CreateQuantize(const KernelSpec& spec) {
  const D out = HasInput(spec, 2) ? spec.inputs[2].dtype : D::kUInt8;
  if (!quant::IsQuantType(out)) return NotSupported(spec, std::string("zero point dtype ") + DataTypeName(out));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[0], "input", {D::kFloat32}));
  GE_ASSIGN_OR_RETURN(AxisView v, PlanLinear(spec, out));
  const int64_t ns = spec.inputs[1].NumElements();
  const int64_t nz = HasInput(spec, 2) ? spec.inputs[2].NumElements() : 0;
  Result<KernelPtr> k = Internal("unreachable");
  quant::DispatchQuant(out, [&]<typename Q>() {
    k = MakeKernel([v, ns, nz](const void* const* in, void* const* o) {
      const float* x = static_cast<const float*>(in[0]);
      const float* scale = static_cast<const float*>(in[1]);
      const Q* zp = nz ? static_cast<const Q*>(in[2]) : nullptr;
      Q* y = static_cast<Q*>(o[0]);
      for (int64_t a = 0; a < v.outer; ++a)
        for (int64_t j = 0; j < v.n; ++j) {
          const float s = scale[quant::ParamAt(ns, j)];
          const int32_t z = nz ? zp[quant::ParamAt(nz, j)] : 0;
          const int64_t base = (a * v.n + j) * v.inner;
          for (int64_t i = 0; i < v.inner; ++i) y[base + i] = Saturate<Q>(x[base + i] / s, z);
        }
      return Status::Ok();
    });
  });
  return k;
}

Result<KernelPtr> CreateDequantize(const KernelSpec& spec) {
  const D t = spec.inputs[0].dtype;
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[0], "input", {D::kUInt8, D::kInt8, D::kInt32}));
  if (HasInput(spec, 2) && spec.inputs[2].dtype != t) return Bad(spec, "the zero point must have the input's dtype");
  GE_ASSIGN_OR_RETURN(AxisView v, PlanLinear(spec, D::kFloat32));
  const int64_t ns = spec.inputs[1].NumElements();
  const int64_t nz = HasInput(spec, 2) ? spec.inputs[2].NumElements() : 0;
  return MakeKernel([v, ns, nz, t](const void* const* in, void* const* o) {
    const float* scale = static_cast<const float*>(in[1]);
    float* y = static_cast<float*>(o[0]);
    auto at = [t](const void* p, int64_t i) -> int64_t {
      return t == D::kInt32 ? static_cast<const int32_t*>(p)[i] : quant::QuantAt(p, t, i);
    };
    for (int64_t a = 0; a < v.outer; ++a)
      for (int64_t j = 0; j < v.n; ++j) {
        const float s = scale[quant::ParamAt(ns, j)];
        const int64_t z = nz ? at(in[2], quant::ParamAt(nz, j)) : 0;
        const int64_t base = (a * v.n + j) * v.inner;
        for (int64_t i = 0; i < v.inner; ++i) y[base + i] = static_cast<float>(at(in[0], base + i) - z) * s;
      }
    return Status::Ok();
  });
}

// DynamicQuantizeLinear: the range [min(0, min x), max(0, max x)] mapped
// onto [0, 255]. An all-zero x has scale 0: zero point 0 and y all 0.
Status CheckDynamic(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 3, 3));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[0], "input", {D::kFloat32}));
  if (spec.outputs[0].dtype != D::kUInt8 || spec.outputs[1].dtype != D::kFloat32 || spec.outputs[2].dtype != D::kUInt8)
    return Bad(spec, "outputs must be uint8, float32 and uint8");
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, spec.inputs[0].dims));
  if (spec.outputs[1].NumElements() != 1 || spec.outputs[2].NumElements() != 1)
    return Bad(spec, "the scale and zero point outputs hold one value each");
  return Status::Ok();
}

Result<KernelPtr> CreateDynamic(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckDynamic(spec));
  const int64_t n = spec.inputs[0].NumElements();
  return MakeKernel([n](const void* const* in, void* const* o) {
    const float* x = static_cast<const float*>(in[0]);
    float lo = 0, hi = 0;
    for (int64_t i = 0; i < n; ++i) {
      lo = std::min(lo, x[i]);
      hi = std::max(hi, x[i]);
    }
    const float scale = (hi - lo) / 255.0f;
    const uint8_t zp = scale > 0 ? Saturate<uint8_t>((0 - lo) / scale, 0) : 0;
    uint8_t* y = static_cast<uint8_t*>(o[0]);
    for (int64_t i = 0; i < n; ++i) y[i] = scale > 0 ? Saturate<uint8_t>(x[i] / scale, zp) : 0;
    *static_cast<float*>(o[1]) = scale;
    *static_cast<uint8_t*>(o[2]) = zp;
    return Status::Ok();
  });
}

}  // namespace

void RegisterQuantKernels(KernelRegistry& r) {
  r.Register(
      "QuantizeLinear", [](const KernelSpec& s) { return CreateQuantize(s).status(); }, CreateQuantize);
  r.Register(
      "DequantizeLinear", [](const KernelSpec& s) { return CreateDequantize(s).status(); }, CreateDequantize);
  r.Register("DynamicQuantizeLinear", CheckDynamic, CreateDynamic);
}

}  // namespace ge::hal
