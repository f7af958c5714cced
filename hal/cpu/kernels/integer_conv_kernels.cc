// ConvInteger (i32 = sum (x - x_zp)(w - w_zp)) and QLinearConv (the same sum
// plus an optional i32 bias, requantized: round(acc * x_scale * w_scale[m] /
// y_scale) + y_zp, saturated), 1-D to 3-D, with groups, strides, dilations,
// pads and auto_pad. Padding contributes nothing (x is padded with x_zp).
// w's zero point and scale are one value or one per output channel.
//
// Exact in i32 either way. When w's zero point is neutral (i8 weights with
// zero point 0, u8 with 128; known at creation) the sum is oneDNN's int8
// convolution (int8_conv.h); otherwise a plain loop widens x and w, zero
// points subtracted, into buffers sized at creation. Requantization is ours
// in both (onnxruntime's order).
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"
#include "kernels/int8_conv.h"
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
  dnnl_util::Window dnnl_win;
  Dims x_dims, w_dnnl_dims, y_dims;  // for oneDNN: w grouped as {G, M/G, C/G, k...}
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
  p.dnnl_win = *win;
  p.x_dims = x.dims;
  p.w_dnnl_dims = w.dims;
  if (p.group > 1) {
    p.w_dnnl_dims = {p.group, p.m / p.group};
    p.w_dnnl_dims.insert(p.w_dnnl_dims.end(), w.dims.begin() + 1, w.dims.end());
  }
  Dims want = {p.n, p.m};
  want.insert(want.end(), win->out.begin(), win->out.end());
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  p.y_dims = want;
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

// True when w's zero point is neutral for oneDNN (see the top): absent with
// i8 weights, or a constant holding only 0 (i8) or only 128 (u8).
bool NeutralWeightZeroPoint(const KernelSpec& spec, const IntConvPlan& p) {
  if (!p.w_zp) return p.w_type == D::kInt8;
  const void* zp = spec.ConstInput(p.w_zp);
  if (!zp) return false;
  const int32_t neutral = p.w_type == D::kInt8 ? 0 : 128;
  for (int64_t i = 0; i < spec.inputs[p.w_zp].NumElements(); ++i)
    if (quant::QuantAt(zp, p.w_type, i) != neutral) return false;
  return true;
}

class IntConvKernel final : public Kernel {
 public:
  IntConvKernel(IntConvPlan p, const KernelSpec& spec, std::unique_ptr<Int8Conv> conv)
      : p_(std::move(p)),
        conv_(std::move(conv)),
        x_(conv_ ? 0 : static_cast<size_t>(spec.inputs[p_.x].NumElements())),
        w_(conv_ ? 0 : static_cast<size_t>(spec.inputs[p_.w].NumElements())),
        acc_(conv_ && p_.requantize ? static_cast<size_t>(spec.outputs[0].NumElements()) : 0),
        w_zps_(p_.w_zp ? spec.inputs[p_.w_zp].NumElements() : 0),
        w_scales_(p_.requantize ? spec.inputs[4].NumElements() : 0) {}

  Status Run(const void* const* in, void* const* out) override {
    const int32_t xz = p_.x_zp ? quant::QuantAt(in[p_.x_zp], p_.x_type, 0) : 0;
    if (conv_) {
      int32_t* acc = p_.requantize ? acc_.data() : static_cast<int32_t*>(out[0]);
      GE_RETURN_IF_ERROR(conv_->Run(in[p_.x], in[p_.w], xz, acc));
      if (!p_.requantize) return Status::Ok();
      const int64_t spatial = p_.win.out[0] * p_.win.out[1] * p_.win.out[2];
      for (int64_t o = 0; o < static_cast<int64_t>(acc_.size()); ++o) Store(in, out[0], o, (o / spatial) % p_.m, acc[o]);
      return Status::Ok();
    }
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
  std::unique_ptr<Int8Conv> conv_;
  std::vector<int32_t> x_, w_, acc_;
  int64_t w_zps_, w_scales_;
};

Result<std::unique_ptr<Kernel>> CreateIntConv(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(IntConvPlan p, PlanIntConv(spec));
  std::unique_ptr<Int8Conv> conv;
  if (NeutralWeightZeroPoint(spec, p)) {
    auto made = dnnl_util::Guard(spec, [&] {
      return Int8Conv::Create(p.x_dims, p.w_dnnl_dims, p.y_dims, p.dnnl_win, p.x_type, p.w_type,
                              spec.ConstInput(p.w));
    });
    // oneDNN may lack an int8 convolution for this CPU or shape: the loop is exact too.
    if (made.ok()) conv = std::move(*made);
  }
  return std::unique_ptr<Kernel>(new IntConvKernel(std::move(p), spec, std::move(conv)));
}

}  // namespace

void RegisterIntegerConvKernels(KernelRegistry& r) {
  for (const char* op : {"ConvInteger", "QLinearConv"})
    r.Register(
        op, [](const KernelSpec& s) { return PlanIntConv(s).status(); }, CreateIntConv);
}

}  // namespace ge::hal
