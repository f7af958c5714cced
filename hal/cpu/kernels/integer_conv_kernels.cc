// ConvInteger (i32 = sum (x - x_zp)(w - w_zp)) and QLinearConv (the same sum
// plus an optional i32 bias, requantized: round(acc * x_scale * w_scale[m] /
// y_scale) + y_zp, saturated), 1-D to 3-D, with groups, strides, dilations,
// pads and auto_pad. Padding contributes nothing (x is padded with x_zp).
// w's zero point and scale are one value or one per output channel.
//
// A plain loop, exact in i32: each run widens x and w, zero points
// subtracted, into buffers sized at creation.
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"
#include "kernels/loop_common.h"
#include "kernels/quant_util.h"
#include "kernels/window3.h"

namespace ge::hal {
namespace {

using namespace loop;
using D = DataType;
using Dims = std::vector<int64_t>;

struct IntConvPlan {
  size_t x = 0, x_zp = 0, w = 1, w_zp = 0, bias = 0;  // input positions (0 for zp/bias: none)
  bool requantize = false;
  int64_t n = 0, c = 0, m = 0, group = 1;
  Window3 win;
  D x_type = D::kUInt8, w_type = D::kUInt8, y_type = D::kInt32;
};

Result<IntConvPlan> PlanIntConv(const KernelSpec& spec) {
  IntConvPlan p;
  p.requantize = spec.op == "QLinearConv";
  if (p.requantize) {
    GE_RETURN_IF_ERROR(CheckArity(spec, 8, 9, 1, 1));
    p.x_zp = 2, p.w = 3, p.w_zp = 5, p.bias = HasInput(spec, 8) ? 8 : 0;
  } else {
    GE_RETURN_IF_ERROR(CheckArity(spec, 2, 4, 1, 1));
    p.x_zp = HasInput(spec, 2) ? 2 : 0, p.w_zp = HasInput(spec, 3) ? 3 : 0;
  }
  const TensorInfo &x = spec.inputs[p.x], &w = spec.inputs[p.w];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "x", {D::kUInt8, D::kInt8}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, w, "w", {D::kUInt8, D::kInt8}));
  if ((p.x_zp && spec.inputs[p.x_zp].dtype != x.dtype) || (p.w_zp && spec.inputs[p.w_zp].dtype != w.dtype))
    return Bad(spec, "zero points must have their operand's dtype");
  const size_t rank = x.dims.size();
  if (rank < 3 || rank > 5)
    return NotSupported(spec, "input rank " + std::to_string(rank) + " (only 1-D to 3-D convolution)");
  if (w.dims.size() != rank) return Bad(spec, "weights " + DimsStr(w.dims) + " must have the input's rank");
  p.n = x.dims[0], p.c = x.dims[1], p.m = w.dims[0];
  p.group = spec.attrs.GetInt("group", 1);
  if (p.group < 1 || p.c % p.group || p.m % p.group || w.dims[1] * p.group != p.c)
    return Bad(spec,
               "x " + DimsStr(x.dims) + " and w " + DimsStr(w.dims) + " do not fit group " + std::to_string(p.group));
  const Dims in_sp(x.dims.begin() + 2, x.dims.end()), kernel(w.dims.begin() + 2, w.dims.end());
  if (spec.attrs.Has("kernel_shape") && spec.attrs.GetInts("kernel_shape") != kernel)
    return Bad(spec, "kernel_shape disagrees with the weights " + DimsStr(w.dims));
  auto win = dnnl_util::ComputeWindow(spec.attrs, in_sp, kernel, false);
  if (!win.ok()) return Bad(spec, win.status().message());
  p.win = Window3(*win, in_sp);
  Dims want = {p.n, p.m};
  want.insert(want.end(), win->out.begin(), win->out.end());
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  if (p.x_zp) GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, p.x_zp, 1, "x's zero point"));
  if (p.w_zp) GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, p.w_zp, p.m, "w's zero point"));
  p.x_type = x.dtype, p.w_type = w.dtype, p.y_type = spec.outputs[0].dtype;
  if (!p.requantize) {
    if (p.y_type != D::kInt32) return Bad(spec, "output dtype must be int32");
    return p;
  }
  for (size_t i : {1, 4, 6}) GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[i], "scale", {D::kFloat32}));
  GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 1, 1, "x_scale"));
  GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 4, p.m, "w_scale"));
  GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 6, 1, "y_scale"));
  GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 7, 1, "y_zero_point"));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[7], "y_zero_point", {D::kUInt8, D::kInt8}));
  if (p.y_type != spec.inputs[7].dtype) return Bad(spec, "output dtype must be y_zero_point's");
  if (p.bias && (spec.inputs[8].dtype != D::kInt32 || spec.inputs[8].dims != Dims{p.m}))
    return Bad(spec, "bias must be int32 [" + std::to_string(p.m) + "]");
  return p;
}

class IntConvKernel final : public Kernel {
 public:
  IntConvKernel(IntConvPlan p, const KernelSpec& spec)
      : p_(std::move(p)),
        x_(static_cast<size_t>(spec.inputs[p_.x].NumElements())),
        w_(static_cast<size_t>(spec.inputs[p_.w].NumElements())),
        w_zps_(p_.w_zp ? spec.inputs[p_.w_zp].NumElements() : 0),
        w_scales_(p_.requantize ? spec.inputs[4].NumElements() : 0) {}

  Status Run(const void* const* in, void* const* out) override {
    const int32_t xz = p_.x_zp ? quant::QuantAt(in[p_.x_zp], p_.x_type, 0) : 0;
    for (size_t i = 0; i < x_.size(); ++i) x_[i] = quant::QuantAt(in[p_.x], p_.x_type, static_cast<int64_t>(i)) - xz;
    const int64_t per_m = static_cast<int64_t>(w_.size()) / p_.m;
    for (int64_t i = 0; i < static_cast<int64_t>(w_.size()); ++i)
      w_[i] = quant::QuantAt(in[p_.w], p_.w_type, i) -
              (w_zps_ ? quant::QuantAt(in[p_.w_zp], p_.w_type, quant::ParamAt(w_zps_, i / per_m)) : 0);
    const int64_t cg = p_.c / p_.group, mg = p_.m / p_.group;
    const Window3& win = p_.win;
    const int64_t plane = win.plane();
    int64_t o = 0;
    for (int64_t b = 0; b < p_.n; ++b)
      for (int64_t m = 0; m < p_.m; ++m) {
        const int32_t* xg = x_.data() + (b * p_.c + (m / mg) * cg) * plane;
        const int32_t* wm = w_.data() + m * per_m;
        for (int64_t od = 0; od < win.out[0]; ++od)
          for (int64_t oh = 0; oh < win.out[1]; ++oh)
            for (int64_t ow = 0; ow < win.out[2]; ++ow, ++o)
              Store(in, out[0], o, m, WindowSum(xg, wm, cg, plane, od, oh, ow));
      }
    return Status::Ok();
  }

 private:
  // The sum over one window of every input channel of the group.
  int32_t WindowSum(const int32_t* xg, const int32_t* wm, int64_t cg, int64_t plane, int64_t od, int64_t oh,
                    int64_t ow) const {
    const Window3& win = p_.win;
    const int64_t kvol = win.kernel_volume();
    int32_t acc = 0;
    win.ForEachTap(od, oh, ow, [&](int64_t id, int64_t ih, int64_t iw, int64_t tap) {
      const int64_t xi = (id * win.in[1] + ih) * win.in[2] + iw;
      for (int64_t c = 0; c < cg; ++c) acc += xg[c * plane + xi] * wm[c * kvol + tap];
    });
    return acc;
  }

  void Store(const void* const* in, void* y, int64_t o, int64_t m, int32_t acc) const {
    if (!p_.requantize) {
      static_cast<int32_t*>(y)[o] = acc;
      return;
    }
    if (p_.bias) acc += static_cast<const int32_t*>(in[p_.bias])[m];
    const float xs = *static_cast<const float*>(in[1]), ys = *static_cast<const float*>(in[6]);
    const float ws = static_cast<const float*>(in[4])[quant::ParamAt(w_scales_, m)];
    const int32_t yz = quant::QuantAt(in[7], p_.y_type, 0);
    // onnxruntime's order: one float multiplier x_scale * w_scale / y_scale.
    quant::DispatchQuant(p_.y_type, [&]<typename Q>() {
      static_cast<Q*>(y)[o] = quant::Saturate<Q>(static_cast<float>(acc) * (xs * ws / ys), yz);
    });
  }

  IntConvPlan p_;
  std::vector<int32_t> x_, w_;
  int64_t w_zps_, w_scales_;
};

Result<std::unique_ptr<Kernel>> CreateIntConv(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(IntConvPlan p, PlanIntConv(spec));
  return std::unique_ptr<Kernel>(new IntConvKernel(std::move(p), spec));
}

}  // namespace

void RegisterIntegerConvKernels(KernelRegistry& r) {
  for (const char* op : {"ConvInteger", "QLinearConv"})
    r.Register(
        op, [](const KernelSpec& s) { return PlanIntConv(s).status(); }, CreateIntConv);
}

}  // namespace ge::hal
