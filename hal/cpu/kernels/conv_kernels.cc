// ONNX Conv on oneDNN (1-D/2-D/3-D, grouped and depthwise), with optional
// fused post-ops set by the compiler: "fused_sum" (a 4th input added to the
// result) then "activation" (Relu, Clip, HardSwish, ... as oneDNN post-ops;
// Sigmoid and Swish by an own pass over the f32 output, RunsAfterPrimitive).
// An optional input 4 scales X per channel (conv_input_scale: a
// squeeze-excitation gate), folded into the weights as they are reordered.
// A conv over 1x1 images with few weights is a matrix-vector product and
// runs on conv_gemv.h's loop instead of oneDNN. "conv_algorithm" =
// "winograd" (the compiler's conv_winograd pass) asks for oneDNN's Winograd
// algorithm; where this CPU has none for the shape (a .om moved to an AVX2
// machine) the conv runs direct, as GE_KERNEL_VERBOSE shows.
//
// The primitive picks its layouts (format_tag::any: blocked nChw8c on AVX2,
// which is where oneDNN is fast). X, Y and the residual come in the layout
// the compiler declared (TensorInfo::channel_block): when it matches the
// primitive's choice (the layout stage keeps conv chains blocked) nothing is
// reordered; otherwise src is reordered in and dst out around it. Weights
// and bias are plain; constant weights are reordered once at Create, or
// ahead of time by the compiler (Pack, stored in the .om) and used in place.
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/conv_gemv.h"
#include "kernels/dnnl_context.h"
#include "kernels/loop_common.h"
#include "kernels/packed_weights.h"
#include "kernels/weighted_primitive.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using tag = dnnl::memory::format_tag;

struct ConvPlan {
  int64_t group = 1;
  bool has_bias = false;
  bool fused_sum = false;
  bool input_scale = false;  // input 4: X's channels scaled (folded into the weights per run)
  bool winograd = false;  // asked for; ConvPd falls back to direct
  Activation act;
  bool act_after = false;  // act runs after the primitive (RunsAfterPrimitive), not as its post-op
  Window win;
  std::vector<int64_t> w_dims;  // oneDNN weights dims: [g, M/g, C/g, k...] when grouped
};

// Input 4, the conv_input_scale pass's per-channel scale of X (an SE gate),
// folded into the weights each run: conv(x * s, W) = conv(x, W * s) per
// input channel. One image, one group (the scaled weights are one set), f32
// [1, C, 1, ...]: the same bytes in every layout, so any channel_block.
Status CheckInputScale(const KernelSpec& spec, int64_t group) {
  const TensorInfo& x = spec.inputs[0];
  const TensorInfo& s = spec.inputs[4];
  std::vector<int64_t> want(x.dims.size(), 1);
  want[1] = x.dims[1];
  if (s.dims != want) return InvalidArgument("Conv: input scale " + DimsString(s.dims) + " must be " + DimsString(want));
  if (s.dtype != DataType::kFloat32) return Unsupported("Conv: the input scale must be f32");
  if (x.dims[0] != 1) return Unsupported("Conv: an input scale needs a batch of 1 (one set of scaled weights)");
  if (group != 1) return Unsupported("Conv: an input scale needs group 1");
  return Status::Ok();
}

// The input channel each value of f32 weights [M, C, k...] laid out as
// `packed` multiplies: the channel numbers, reordered like the weights
// (padding gets 0, and its weights are 0).
Result<std::vector<int32_t>> InputChannelOfWeights(const std::vector<int64_t>& w_dims,
                                                   const dnnl::memory::desc& packed, const dnnl::stream& s) {
  dnnl::memory plain(PlainDesc(w_dims, dnnl::memory::data_type::f32), Engine());
  dnnl::memory laid_out(packed, Engine());
  int64_t inner = 1;
  for (size_t i = 2; i < w_dims.size(); ++i) inner *= w_dims[i];
  auto* v = static_cast<float*>(plain.get_data_handle());
  for (int64_t i = 0, n = NumElements(w_dims); i < n; ++i) v[i] = static_cast<float>((i / inner) % w_dims[1]);
  GE_RETURN_IF_ERROR(ReorderNow(s, plain, laid_out));
  const auto* c = static_cast<const float*>(laid_out.get_data_handle());
  std::vector<int32_t> out(packed.get_size() / sizeof(float));
  for (size_t j = 0; j < out.size(); ++j) out[j] = static_cast<int32_t>(c[j]);
  return out;
}

const KnownAttrs kConvKnownAttrs({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides", kAttrFusedSum,
                                  kAttrConvAlgorithm},
                                 /*with_activation=*/true);

Result<ConvPlan> PlanConv(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(kConvKnownAttrs.Check(spec));
  ConvPlan p;
  const auto& a = spec.attrs;
  p.fused_sum = a.GetInt(kAttrFusedSum, 0) != 0;
  p.input_scale = spec.inputs.size() > 4 && spec.inputs[4].present();
  const size_t want_inputs = p.input_scale ? 5 : p.fused_sum ? 4 : 3;
  if (spec.inputs.size() < 2 || spec.inputs.size() > want_inputs)
    return InvalidArgument("Conv takes X, W, optional B" + std::string(p.fused_sum ? " and the fused_sum input" : "") +
                           " and an optional input scale (input 4), got " + std::to_string(spec.inputs.size()) +
                           " inputs");
  if (p.fused_sum != (spec.inputs.size() > 3 && spec.inputs[3].present()))
    return InvalidArgument(p.fused_sum ? "Conv with fused_sum=1 needs the residual as input 3"
                                       : "Conv: input 3 (a residual) needs fused_sum=1");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "Conv has one output"));
  GE_RETURN_IF_ERROR(RequireStaticFloat(spec));
  // bf16 X computes in bf16 (f32 weights are converted when packed); the
  // output may be either type.
  if (spec.inputs[1].dtype != DataType::kFloat32 && spec.inputs[1].dtype != spec.inputs[0].dtype)
    return Unsupported("Conv: W is " + std::string(DataTypeName(spec.inputs[1].dtype)) + " but X is " +
                       DataTypeName(spec.inputs[0].dtype));
  if (p.fused_sum && spec.inputs[3].dtype != spec.outputs[0].dtype)
    return Unsupported("Conv: the fused_sum input must have the output's type");
  GE_RETURN_IF_ERROR(RequirePlain(spec, {1, 2}, "weights and bias"));
  GE_RETURN_IF_ERROR(CheckLayout(spec.inputs[0], "Conv X"));
  GE_RETURN_IF_ERROR(CheckLayout(spec.outputs[0], "Conv Y"));
  // The residual may share the output's buffer (in place), so it must share
  // its layout too.
  if (p.fused_sum && spec.inputs[3].channel_block != spec.outputs[0].channel_block)
    return Unsupported("Conv: the fused_sum input must have the output's layout");
  const auto& x = spec.inputs[0].dims;
  const auto& w = spec.inputs[1].dims;
  if (x.size() < 3 || x.size() > 5)
    return Unsupported("Conv: input rank " + std::to_string(x.size()) + " (only 1-D, 2-D, 3-D convolutions)");
  if (w.size() != x.size())
    return InvalidArgument("Conv: W " + DimsString(w) + " does not match the rank of X " + DimsString(x));
  p.group = a.GetInt("group", 1);
  const int64_t c = x[1], m = w[0];
  if (p.group < 1 || c % p.group != 0 || m % p.group != 0 || w[1] * p.group != c)
    return InvalidArgument("Conv: group " + std::to_string(p.group) + " does not fit X " + DimsString(x) + " and W " +
                           DimsString(w));
  p.has_bias = spec.inputs.size() > 2 && spec.inputs[2].present();
  if (p.has_bias && spec.inputs[2].NumElements() != m)
    return InvalidArgument("Conv: B " + DimsString(spec.inputs[2].dims) + " must have " + std::to_string(m) +
                           " values");
  const std::vector<int64_t> in_sp(x.begin() + 2, x.end()), k_sp(w.begin() + 2, w.end());
  const auto ks = a.GetInts("kernel_shape", k_sp);
  if (ks != k_sp) return InvalidArgument("Conv: kernel_shape " + DimsString(ks) + " does not match W " + DimsString(w));
  GE_ASSIGN_OR_RETURN(p.win, ComputeWindow(a, in_sp, k_sp, /*ceil_mode=*/false));
  std::vector<int64_t> y = {x[0], m};
  y.insert(y.end(), p.win.out.begin(), p.win.out.end());
  if (spec.outputs[0].dims != y)
    return InvalidArgument("Conv: output " + DimsString(spec.outputs[0].dims) + " does not match the computed " +
                           DimsString(y));
  if (p.fused_sum && spec.inputs[3].dims != y)
    return InvalidArgument("Conv: fused_sum input " + DimsString(spec.inputs[3].dims) + " must have the output shape " +
                           DimsString(y));
  if (p.input_scale) GE_RETURN_IF_ERROR(CheckInputScale(spec, p.group));
  GE_ASSIGN_OR_RETURN(p.act, ParseActivation(a));
  p.act_after = spec.outputs[0].dtype == DataType::kFloat32 && RunsAfterPrimitive(p.act);
  const std::string algorithm = a.GetString(kAttrConvAlgorithm, ConvAlgorithmName(ConvAlgorithm::kDirect));
  const std::optional<ConvAlgorithm> chosen = ConvAlgorithmFromName(algorithm);
  if (!chosen) return InvalidArgument("Conv: conv_algorithm \"" + algorithm + "\" (direct or winograd)");
  p.winograd = *chosen == ConvAlgorithm::kWinograd && !p.input_scale;  // no scaled reorder into Winograd's weights
  if (p.group == 1) {
    p.w_dims = w;
  } else {
    p.w_dims = {p.group, m / p.group};
    p.w_dims.insert(p.w_dims.end(), w.begin() + 1, w.end());
  }
  return p;
}

dnnl::memory::desc BiasDesc(const KernelSpec& spec, const ConvPlan& p) {
  return p.has_bias ? PlainDesc({spec.outputs[0].dims[1]}, ToDnnl(spec.inputs[2].dtype)) : dnnl::memory::desc();
}

// The primitive Create makes for `spec` (and Pack packs for): layouts left
// to oneDNN (format_tag::any; Winograd's are nChw16c and its own weights
// format), post-ops from the plan.
dnnl::convolution_forward::primitive_desc ConvPd(const KernelSpec& spec, const ConvPlan& p) {
  const auto compute = ToDnnl(spec.inputs[0].dtype);
  const auto any = [&](const std::vector<int64_t>& d, dnnl::memory::data_type t) {
    return dnnl::memory::desc(ToDims(d), t, tag::any);
  };
  dnnl::primitive_attr attr = ScratchpadAttr();
  dnnl::post_ops ops;
  if (p.fused_sum) ops.append_sum(1.0f);  // dst holds the residual when the conv runs
  if (!p.act_after) AppendActivation(ops, p.act);
  attr.set_post_ops(ops);
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  const auto pd = [&](dnnl::algorithm algorithm, const dnnl::memory::desc& src, const dnnl::memory::desc& dst) {
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src, any(p.w_dims, compute),
                                         BiasDesc(spec, p), dst, p.win.DnnlStrides(), p.win.DnnlDilations(),
                                         p.win.PadL(), p.win.PadR());
    return dnnl::convolution_forward::primitive_desc(desc, attr, Engine());
  };
  const auto free_src = any(x.dims, compute), free_dst = any(y.dims, ToDnnl(y.dtype));
  if (p.winograd && p.group == 1) {
    try {
      return pd(dnnl::algorithm::convolution_winograd, free_src, free_dst);
    } catch (const dnnl::error&) {  // none on this CPU or for this shape: direct computes the same
    }
  }
  auto chosen = pd(dnnl::algorithm::convolution_direct, free_src, free_dst);
  // The layout stage may keep a model in another blocked layout than the one
  // oneDNN prefers (Winograd's nChw16c on AVX-512, where the direct kernels
  // prefer nhwc). A direct kernel for the declared layouts saves a reorder
  // in and out, and the 1x1 ones run as fast; a reference or gemm kernel
  // would not, so the free choice stays then.
  if (y.channel_block > 0 && (chosen.src_desc() != LayoutDesc(x) || chosen.dst_desc() != LayoutDesc(y))) {
    try {
      auto declared = pd(dnnl::algorithm::convolution_direct, LayoutDesc(x), LayoutDesc(y));
      if (!IsReference(declared) && std::strncmp(declared.impl_info_str(), "gemm", 4) != 0) return declared;
    } catch (const dnnl::error&) {  // no kernel for these layouts: the free choice
    }
  }
  return chosen;
}

class ConvKernel final : public WeightedPrimitiveKernel {
 public:
  using WeightedPrimitiveKernel::WeightedPrimitiveKernel;

  Status Init(const KernelSpec& spec, const ConvPlan& p) {
    const dnnl::convolution_forward::primitive_desc pd = ConvPd(spec, p);
    // User-facing memories: the declared layouts, bound to the caller's pointers.
    MakeUserMemories(spec, LayoutDesc(spec.inputs[0]), PlainDesc(p.w_dims, ToDnnl(spec.inputs[1].dtype)),
                     BiasDesc(spec, p), LayoutDesc(spec.outputs[0]));
    if (p.fused_sum) sum_ = UserMemory(LayoutDesc(spec.inputs[3]));
    const dnnl::memory x = SourceFor(pd.src_desc());
    // With an input scale, constant f32 weights are packed as usual and
    // multiplied per run into a copy (ScaleWeights); others are reordered
    // per run by a reorder that scales them.
    const bool scale_packed =
        p.input_scale && spec.ConstInput(1) && pd.weights_desc().data_type() == dnnl::memory::data_type::f32;
    dnnl::memory w;
    if (p.input_scale && !scale_packed) {
      // the reorder's scale per input channel, dim 1 of [M, C, k...]
      scale_ = UserMemory(PlainDesc({spec.inputs[0].dims[1]}, dnnl::memory::data_type::f32));
      w = Temporary(pd.weights_desc());
      steps_.push_back(MakeScaledReorder(w_, w, 1 << 1, scale_));
    } else {
      GE_ASSIGN_OR_RETURN(w, WeightsFor(spec, pd.weights_desc()));
    }
    const std::string weights_log = p.input_scale ? (scale_packed ? "weights:packed,scaled-per-run"
                                                                  : "weights:reordered-scaled-per-run")
                                                  : WeightsLog(spec, w);
    if (scale_packed) {
      GE_ASSIGN_OR_RETURN(weight_channel_, InputChannelOfWeights(p.w_dims, w.get_desc(), stream()));
      unscaled_w_ = static_cast<const float*>(w.get_data_handle());
      w = dnnl::memory(w.get_desc(), Engine());  // this kernel's scaled copy
      scaled_w_ = static_cast<float*>(w.get_data_handle());
    }
    const dnnl::memory y = DestinationFor(pd.dst_desc());
    if (p.fused_sum && y != y_) steps_.push_back(MakeReorder(sum_, y));
    // dst as declared: the residual is copied in
    if (p.fused_sum && y == y_) copy_sum_bytes_ = spec.outputs[0].Bytes();
    AddPrimitive(dnnl::convolution_forward(pd), pd, x, w, y);
    const auto layout = [](const TensorInfo& t) { return t.channel_block ? "blocked" : "plain"; };
    LogImpl(spec, "conv", pd,
            std::string(x != x_ ? "src:reordered" : std::string("src:") + layout(spec.inputs[0])) +
                (y != y_ ? " dst:reordered" : std::string(" dst:") + layout(spec.outputs[0])) + " " + weights_log);
    fused_sum_ = p.fused_sum;
    if (p.act_after) {
      act_ = p.act;
      act_values_ = spec.outputs[0].NumElements();
    }
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    BindInputs(in);
    if (scale_) Bind(scale_, in[4]);
    if (scaled_w_) ScaleWeights(static_cast<const float*>(in[4]));
    Bind(y_, out[0]);
    if (fused_sum_) {
      Bind(sum_, in[3]);
      if (copy_sum_bytes_ && in[3] != out[0]) std::memcpy(out[0], in[3], copy_sum_bytes_);
    }
    GE_RETURN_IF_ERROR(Execute(steps_));
    if (act_values_) {
      GE_RETURN_IF_ERROR(Wait());
      RunActivationAfter(act_, static_cast<float*>(out[0]), act_values_);
    }
    return Status::Ok();
  }

 private:
  // scaled_w_[j] = unscaled_w_[j] * s[weight_channel_[j]], over the packed weights.
  void ScaleWeights(const float* s) const {
    const int32_t* c = weight_channel_.data();
    loop::ParallelFor(static_cast<int64_t>(weight_channel_.size()), [&](int64_t b, int64_t e) {
      for (int64_t j = b; j < e; ++j) scaled_w_[j] = unscaled_w_[j] * s[c[j]];
    });
  }

  dnnl::memory sum_, scale_;
  std::vector<int32_t> weight_channel_;  // input channel of each packed weight
  const float* unscaled_w_ = nullptr;
  float* scaled_w_ = nullptr;
  bool fused_sum_ = false;
  size_t copy_sum_bytes_ = 0;
  Activation act_;           // run after the steps when act_values_ > 0
  int64_t act_values_ = 0;
};

Status SupportsConv(const KernelSpec& spec) {
  return Guard(spec, [&] { return PlanConv(spec).status(); });
}

Result<std::unique_ptr<Kernel>> CreateConv(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Result<std::unique_ptr<Kernel>> {
    GE_ASSIGN_OR_RETURN(ConvPlan p, PlanConv(spec));
    if (ConvIsGemv(spec)) return CreateConvGemv(spec);
    return MakeInitialized<ConvKernel>(spec, p);
  });
}

Result<std::vector<PackedConstant>> PackConv(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Result<std::vector<PackedConstant>> {
    const void* w = spec.ConstInput(1);
    if (!w || ConvIsGemv(spec)) return std::vector<PackedConstant>{};  // the GEMV reads W as it is
    GE_ASSIGN_OR_RETURN(ConvPlan p, PlanConv(spec));
    // bf16 weights are scaled as they are reordered, per run, from the plain ones
    if (p.input_scale && spec.inputs[0].dtype != DataType::kFloat32) return std::vector<PackedConstant>{};
    const auto pd = ConvPd(spec, p);
    dnnl::memory plain(PlainDesc(p.w_dims, ToDnnl(spec.inputs[1].dtype)), Engine(), const_cast<void*>(w));
    return PackAhead(1, plain, pd.weights_desc());
  });
}

}  // namespace

void RegisterConvKernels(KernelRegistry& r) {
  r.Register("Conv", SupportsConv, CreateConv, LayoutSupport::kOwn);
  r.SetPacker("Conv", PackConv);
}

}  // namespace ge::hal
