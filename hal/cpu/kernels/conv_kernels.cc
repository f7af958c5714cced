// ONNX Conv on oneDNN (1-D/2-D/3-D, grouped and depthwise), with optional
// fused post-ops set by the compiler: "fused_sum" (a 4th input added to the
// result) then "activation" (Relu, Clip, HardSwish, ... as oneDNN post-ops;
// Sigmoid and Swish by an own pass over the f32 output, RunsAfterPrimitive). "conv_algorithm" =
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
#include "kernels/dnnl_context.h"
#include "kernels/packed_weights.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using tag = dnnl::memory::format_tag;

struct ConvPlan {
  int64_t group = 1;
  bool has_bias = false;
  bool fused_sum = false;
  bool winograd = false;  // asked for; ConvPd falls back to direct
  Activation act;
  bool act_after = false;  // act runs after the primitive (RunsAfterPrimitive), not as its post-op
  Window win;
  std::vector<int64_t> w_dims;  // oneDNN weights dims: [g, M/g, C/g, k...] when grouped
};

Result<ConvPlan> PlanConv(const KernelSpec& spec) {
  ConvPlan p;
  const auto& a = spec.attrs;
  p.fused_sum = a.GetInt("fused_sum", 0) != 0;
  const size_t want_inputs = p.fused_sum ? 4 : 3;
  if (spec.inputs.size() < 2 || spec.inputs.size() > want_inputs)
    return InvalidArgument("Conv takes X, W, optional B" + std::string(p.fused_sum ? " and the fused_sum input" : "") +
                           ", got " + std::to_string(spec.inputs.size()) + " inputs");
  if (p.fused_sum && (spec.inputs.size() != 4 || !spec.inputs[3].present()))
    return InvalidArgument("Conv with fused_sum=1 needs the residual as input 3");
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
  if (spec.inputs.size() > 3 && spec.inputs[3].channel_block != spec.outputs[0].channel_block)
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
  GE_ASSIGN_OR_RETURN(p.act, ParseActivation(a));
  p.act_after = spec.outputs[0].dtype == DataType::kFloat32 && RunsAfterPrimitive(p.act);
  const std::string algorithm = a.GetString("conv_algorithm", "direct");
  if (algorithm != "direct" && algorithm != "winograd")
    return InvalidArgument("Conv: conv_algorithm \"" + algorithm + "\" (direct or winograd)");
  p.winograd = algorithm == "winograd";
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
  const auto pd = [&](dnnl::algorithm algorithm) {
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm,
                                         any(spec.inputs[0].dims, compute), any(p.w_dims, compute), BiasDesc(spec, p),
                                         any(spec.outputs[0].dims, ToDnnl(spec.outputs[0].dtype)),
                                         p.win.DnnlStrides(), p.win.DnnlDilations(), p.win.PadL(), p.win.PadR());
    return dnnl::convolution_forward::primitive_desc(desc, attr, Engine());
  };
  if (p.winograd && p.group == 1) {
    try {
      return pd(dnnl::algorithm::convolution_winograd);
    } catch (const dnnl::error&) {  // none on this CPU or for this shape: direct computes the same
    }
  }
  return pd(dnnl::algorithm::convolution_direct);
}

class ConvKernel final : public DnnlKernel {
 public:
  explicit ConvKernel(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec, const ConvPlan& p) {
    const auto bias_md = BiasDesc(spec, p);
    const dnnl::convolution_forward::primitive_desc pd = ConvPd(spec, p);

    // User-facing memories: the declared layouts, bound to the caller's pointers.
    x_ = UserMemory(LayoutDesc(spec.inputs[0]));
    w_ = UserMemory(PlainDesc(p.w_dims, ToDnnl(spec.inputs[1].dtype)));
    y_ = UserMemory(LayoutDesc(spec.outputs[0]));
    if (p.has_bias) b_ = UserMemory(bias_md);
    if (p.fused_sum) sum_ = UserMemory(LayoutDesc(spec.inputs[3]));

    dnnl::memory x = x_, w = w_, y = y_;
    if (pd.src_desc() != x_.get_desc()) {
      x = Temporary(pd.src_desc());
      steps_.push_back(MakeReorder(x_, x));
    }
    const void* w_const = spec.ConstInput(1);
    if (w_const) Bind(w_, w_const);
    bind_w_ = !w_const;
    if (pd.weights_desc() != w_.get_desc()) {
      if (w_const) {
        // packed ahead (the .om) or once here
        GE_ASSIGN_OR_RETURN(packed_w_, PackedWeights(spec, 1, stream(), w_, pd.weights_desc()));
        w = *packed_w_;
      } else {
        w = Temporary(pd.weights_desc());
        steps_.push_back(MakeReorder(w_, w));
      }
    }
    if (p.has_bias) {
      const void* b_const = spec.ConstInput(2);
      if (b_const) Bind(b_, b_const);
      bind_b_ = !b_const;
    }
    const bool reorder_dst = pd.dst_desc() != y_.get_desc();
    if (reorder_dst) {
      y = Temporary(pd.dst_desc());
      if (p.fused_sum) steps_.push_back(MakeReorder(sum_, y));
    } else if (p.fused_sum) {
      copy_sum_bytes_ = spec.outputs[0].Bytes();  // dst as declared: the residual is copied in
    }
    std::vector<std::pair<int, dnnl::memory>> args = {{DNNL_ARG_SRC, x}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, y}};
    if (p.has_bias) args.emplace_back(DNNL_ARG_BIAS, b_);
    steps_.emplace_back(dnnl::convolution_forward(pd), pd, std::move(args));
    if (reorder_dst) steps_.push_back(MakeReorder(y, y_));
    const auto layout = [](const TensorInfo& t) { return t.channel_block ? "blocked" : "plain"; };
    LogImpl(spec, "conv", pd,
            std::string(x != x_ ? "src:reordered" : std::string("src:") + layout(spec.inputs[0])) +
                (reorder_dst ? " dst:reordered" : std::string(" dst:") + layout(spec.outputs[0])) +
                (w != w_ ? (w_const ? (spec.Packed(1) && packed_w_->get_data_handle() == spec.Packed(1)->data
                                           ? " weights:packed-ahead"
                                           : " weights:packed-once")
                                    : " weights:reordered-per-run")
                         : " weights:plain"));
    has_bias_ = p.has_bias;
    fused_sum_ = p.fused_sum;
    if (p.act_after) {
      act_ = p.act;
      act_values_ = spec.outputs[0].NumElements();
    }
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    Bind(x_, in[0]);
    if (bind_w_) Bind(w_, in[1]);
    if (has_bias_ && bind_b_) Bind(b_, in[2]);
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
  dnnl::memory x_, w_, b_, y_, sum_;
  std::shared_ptr<const dnnl::memory> packed_w_;  // constant weights, shared with other kernels
  bool bind_w_ = true, bind_b_ = true, has_bias_ = false, fused_sum_ = false;
  size_t copy_sum_bytes_ = 0;
  Activation act_;           // run after the steps when act_values_ > 0
  int64_t act_values_ = 0;
  std::vector<Step> steps_;
};

Status SupportsConv(const KernelSpec& spec) {
  return Guard(spec, [&] { return PlanConv(spec).status(); });
}

Result<std::unique_ptr<Kernel>> CreateConv(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Result<std::unique_ptr<Kernel>> {
    GE_ASSIGN_OR_RETURN(ConvPlan p, PlanConv(spec));
    auto k = std::make_unique<ConvKernel>(spec);
    GE_RETURN_IF_ERROR(k->Init(spec, p));
    return std::unique_ptr<Kernel>(std::move(k));
  });
}

Result<std::vector<PackedConstant>> PackConv(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Result<std::vector<PackedConstant>> {
    const void* w = spec.ConstInput(1);
    if (!w) return std::vector<PackedConstant>{};
    GE_ASSIGN_OR_RETURN(ConvPlan p, PlanConv(spec));
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
