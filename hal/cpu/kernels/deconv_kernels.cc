// ONNX ConvTranspose on oneDNN's deconvolution (1-D/2-D/3-D, grouped),
// plain layouts in and out.
//
// ONNX output size per axis: stride*(in-1) + output_padding + dk - pads,
// dk = (k-1)*dilation+1, with pads from the attribute, from auto_pad or from
// output_shape (ONNX: SAME_UPPER puts the smaller half first, the rest
// the larger). oneDNN computes the window of the full result
// stride*(in-1) + dk starting at pad_begin; output_padding and output_shape
// can make pads negative, i.e. the output reaches past the full result, where
// only the bias lands. oneDNN takes no negative pads, so then it computes
// into a staging buffer and the kernel copies that into the bias-filled
// output at the right offset.
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/weighted_primitive.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using tag = dnnl::memory::format_tag;
using Dims = std::vector<int64_t>;

struct DeconvPlan {
  int64_t group = 1;
  bool has_bias = false;
  Dims kernel, strides, dilations, pad_begin, pad_end;  // ONNX pads, may be negative
  Dims staged;                                          // oneDNN's result dims when staging, else empty
  Dims offset;                                          // per spatial axis: staged index = out index - offset
  Dims w_dims;                                          // oneDNN weights dims ([g,] OC/g, IC/g, k...)
};

const KnownAttrs kDeconvKnownAttrs({"auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape",
                                    "pads", "strides"},
                                   /*with_activation=*/false);

Result<DeconvPlan> PlanDeconv(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(kDeconvKnownAttrs.Check(spec));
  DeconvPlan p;
  const auto& a = spec.attrs;
  if (spec.inputs.size() < 2 || spec.inputs.size() > 3)
    return InvalidArgument("ConvTranspose takes X, W and optional B, got " + std::to_string(spec.inputs.size()) +
                           " inputs");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "ConvTranspose has one output"));
  GE_RETURN_IF_ERROR(RequireStaticF32(spec));
  const Dims& x = spec.inputs[0].dims;
  const Dims& w = spec.inputs[1].dims;
  if (x.size() < 3 || x.size() > 5)
    return Unsupported("ConvTranspose: input rank " + std::to_string(x.size()) + " (only 1-D, 2-D, 3-D)");
  if (w.size() != x.size())
    return InvalidArgument("ConvTranspose: W " + DimsString(w) + " does not match the rank of X " + DimsString(x));
  const size_t n = x.size() - 2;
  p.group = a.GetInt("group", 1);
  const int64_t c = x[1];
  if (p.group < 1 || w[0] != c || c % p.group != 0)
    return InvalidArgument("ConvTranspose: group " + std::to_string(p.group) + " does not fit X " + DimsString(x) +
                           " and W " + DimsString(w));
  const int64_t m = w[1] * p.group;
  p.has_bias = spec.inputs.size() > 2 && spec.inputs[2].present();
  if (p.has_bias && spec.inputs[2].NumElements() != m)
    return InvalidArgument("ConvTranspose: B " + DimsString(spec.inputs[2].dims) + " must have " + std::to_string(m) +
                           " values");
  p.kernel.assign(w.begin() + 2, w.end());
  if (a.GetInts("kernel_shape", p.kernel) != p.kernel)
    return InvalidArgument("ConvTranspose: kernel_shape does not match W " + DimsString(w));
  p.strides = a.GetInts("strides", Dims(n, 1));
  p.dilations = a.GetInts("dilations", Dims(n, 1));
  const Dims out_pad = a.GetInts("output_padding", Dims(n, 0));
  Dims pads = a.GetInts("pads", Dims(2 * n, 0));
  Dims given = a.GetInts("output_shape", {});
  const std::string auto_pad = a.GetString("auto_pad", "NOTSET");
  if (p.strides.size() != n || p.dilations.size() != n || out_pad.size() != n || pads.size() != 2 * n)
    return InvalidArgument("ConvTranspose: strides, dilations, output_padding or pads do not fit " +
                           std::to_string(n) + " spatial axes");
  if (!given.empty() && given.size() != n && given.size() != n + 2)
    return InvalidArgument("ConvTranspose: output_shape " + DimsString(given) + " does not fit " + std::to_string(n) +
                           " spatial axes");
  if (given.size() == n + 2) given.erase(given.begin(), given.begin() + 2);
  const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  if (!same && auto_pad != "VALID" && auto_pad != "NOTSET" && !auto_pad.empty())
    return InvalidArgument("auto_pad '" + auto_pad + "' is not NOTSET, VALID, SAME_UPPER or SAME_LOWER");
  Dims y = {x[0], m};
  p.pad_begin.resize(n);
  p.pad_end.resize(n);
  bool stage = false;
  for (size_t i = 0; i < n; ++i) {
    if (p.kernel[i] < 1 || p.strides[i] < 1 || p.dilations[i] < 1 || out_pad[i] < 0)
      return InvalidArgument("ConvTranspose: kernel, strides and dilations must be positive, output_padding not negative");
    const int64_t dk = (p.kernel[i] - 1) * p.dilations[i] + 1;
    const int64_t full = p.strides[i] * (x[i + 2] - 1) + dk;  // the whole scattered result
    int64_t out;
    if (!given.empty() || same) {
      out = given.empty() ? x[i + 2] * p.strides[i] : given[i];
      // total is negative when the output is larger than the result: the
      // halves are then floored as ONNX's reference does (-1 -> 0 and -1).
      const int64_t total = full + out_pad[i] - out;
      const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      p.pad_begin[i] = auto_pad == "SAME_UPPER" ? half : total - half;
      p.pad_end[i] = total - p.pad_begin[i];
    } else {
      if (auto_pad != "VALID") {
        p.pad_begin[i] = pads[i];
        p.pad_end[i] = pads[i + n];
      }
      if (p.pad_begin[i] < 0 || p.pad_end[i] < 0) return InvalidArgument("ConvTranspose: pads must be non-negative");
      out = full + out_pad[i] - p.pad_begin[i] - p.pad_end[i];
    }
    if (out < 1) return InvalidArgument("ConvTranspose: output size " + std::to_string(out) + " is not positive");
    y.push_back(out);
    // oneDNN's window over `full`: its own end pad is what the output leaves out.
    if (p.pad_begin[i] < 0 || full - p.pad_begin[i] - out < 0) stage = true;
  }
  if (spec.outputs[0].dims != y)
    return InvalidArgument("ConvTranspose: output " + DimsString(spec.outputs[0].dims) + " does not match the computed " +
                           DimsString(y));
  if (stage) {
    p.staged = {x[0], m};
    p.offset.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const int64_t dk = (p.kernel[i] - 1) * p.dilations[i] + 1;
      const int64_t full = p.strides[i] * (x[i + 2] - 1) + dk;
      const int64_t l = std::max<int64_t>(p.pad_begin[i], 0), r = std::max<int64_t>(full - p.pad_begin[i] - y[i + 2], 0);
      p.staged.push_back(full - l - r);
      p.offset[i] = l - p.pad_begin[i];  // out index o reads staged[o - offset]
      p.pad_begin[i] = l;
      p.pad_end[i] = r;
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      const int64_t dk = (p.kernel[i] - 1) * p.dilations[i] + 1;
      p.pad_end[i] = p.strides[i] * (x[i + 2] - 1) + dk - p.pad_begin[i] - y[i + 2];
    }
  }
  if (p.group == 1) {
    p.w_dims = {m, c};
  } else {
    p.w_dims = {p.group, m / p.group, c / p.group};
  }
  p.w_dims.insert(p.w_dims.end(), p.kernel.begin(), p.kernel.end());
  return p;
}

// ONNX keeps W as [C_in, M/group, k...]: oneDNN's weights with the in and
// out channel axes swapped.
tag OnnxWeightsTag(size_t spatial, bool grouped) {
  static const tag plain[] = {tag::bac, tag::bacd, tag::bacde};
  static const tag groups[] = {tag::acbd, tag::acbde, tag::acbdef};
  return (grouped ? groups : plain)[spatial - 1];
}

class DeconvKernel final : public WeightedPrimitiveKernel {
 public:
  using WeightedPrimitiveKernel::WeightedPrimitiveKernel;

  Status Init(const KernelSpec& spec, const DeconvPlan& p) {
    const auto f32 = dnnl::memory::data_type::f32;
    const size_t n = p.kernel.size();
    const Dims& ydims = p.staged.empty() ? spec.outputs[0].dims : p.staged;
    const auto any = [&](const Dims& d) { return dnnl::memory::desc(ToDims(d), f32, tag::any); };
    const auto bias_md = p.has_bias ? PlainDesc({ydims[1]}) : dnnl::memory::desc();
    Dims dil(n);
    for (size_t i = 0; i < n; ++i) dil[i] = p.dilations[i] - 1;  // oneDNN counts from 0
    dnnl::deconvolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                           any(spec.inputs[0].dims), any(p.w_dims), bias_md, any(ydims),
                                           ToDims(p.strides), ToDims(dil), ToDims(p.pad_begin), ToDims(p.pad_end));
    dnnl::deconvolution_forward::primitive_desc pd(desc, ScratchpadAttr(), Engine());
    LogImpl(spec, "deconv", pd, p.staged.empty() ? "" : "staged");

    MakeUserMemories(spec, PlainDesc(spec.inputs[0].dims),
                     dnnl::memory::desc(ToDims(p.w_dims), f32, OnnxWeightsTag(n, p.group > 1)), bias_md,
                     PlainDesc(ydims));
    const dnnl::memory x = SourceFor(pd.src_desc());
    GE_ASSIGN_OR_RETURN(const dnnl::memory w, WeightsFor(spec, pd.weights_desc()));
    AddPrimitive(dnnl::deconvolution_forward(pd), pd, x, w, DestinationFor(pd.dst_desc()));
    has_bias_ = p.has_bias;
    if (!p.staged.empty()) {
      staged_.resize(static_cast<size_t>(Count(p.staged)));
      Bind(y_, staged_.data());
      staged_dims_ = p.staged;
      out_dims_ = spec.outputs[0].dims;
      offset_ = p.offset;
    }
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    BindInputs(in);
    if (staged_.empty()) Bind(y_, out[0]);
    GE_RETURN_IF_ERROR(Execute(steps_));
    if (!staged_.empty()) Unstage(has_bias_ ? static_cast<const float*>(in[2]) : nullptr, static_cast<float*>(out[0]));
    return Status::Ok();
  }

 private:
  static int64_t Count(const Dims& d) {
    int64_t c = 1;
    for (int64_t v : d) c *= v;
    return c;
  }

  // Output = bias everywhere, then the staged result at its offset.
  void Unstage(const float* bias, float* y) const {
    const size_t n = out_dims_.size() - 2;
    const int64_t planes = out_dims_[0] * out_dims_[1], area = Count(out_dims_) / planes;
    const int64_t staged_area = Count(staged_dims_) / planes;
    for (int64_t pl = 0; pl < planes; ++pl) {
      const float b = bias ? bias[pl % out_dims_[1]] : 0.0f;
      float* dst = y + pl * area;
      const float* src = staged_.data() + pl * staged_area;
      for (int64_t e = 0; e < area; ++e) {
        // Spatial coordinates of e in the output, mapped into the staged result.
        int64_t rem = e, idx = 0, stride = 1;
        bool inside = true;
        for (size_t i = n; i-- > 0;) {
          const int64_t o = rem % out_dims_[i + 2];
          rem /= out_dims_[i + 2];
          const int64_t s = o - offset_[i];
          if (s < 0 || s >= staged_dims_[i + 2]) inside = false;
          idx += s * stride;
          stride *= staged_dims_[i + 2];
        }
        dst[e] = inside ? src[idx] : b;
      }
    }
  }

  bool has_bias_ = false;
  std::vector<float> staged_;
  Dims staged_dims_, out_dims_, offset_;
};

Status SupportsDeconv(const KernelSpec& spec) {
  return Guard(spec, [&] { return PlanDeconv(spec).status(); });
}

Result<std::unique_ptr<Kernel>> CreateDeconv(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Result<std::unique_ptr<Kernel>> {
    GE_ASSIGN_OR_RETURN(DeconvPlan p, PlanDeconv(spec));
    return MakeInitialized<DeconvKernel>(spec, p);
  });
}

}  // namespace

void RegisterDeconvKernels(KernelRegistry& r) { r.Register("ConvTranspose", SupportsDeconv, CreateDeconv); }

}  // namespace ge::hal
