// ONNX MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool on oneDNN
// pooling (v2: with dilations); an f32 GlobalAveragePool on the own loop. Input and output share one layout: plain
// NCHW, or channel-blocked when the compiler's layout stage keeps a conv
// chain blocked through the pool.
#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"
#include "kernels/global_avg_pool.h"
#include "kernels/max_pool_loop.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using dims = std::vector<int64_t>;

struct PoolPlan {
  dnnl::algorithm alg;
  Window win;
};

Status CheckInput(const KernelSpec& spec) {
  if (spec.inputs.size() != 1) return InvalidArgument(spec.op + " takes one input");
  GE_RETURN_IF_ERROR(RequireStaticFloat(spec));
  if (!spec.outputs.empty() && spec.outputs[0].dtype != spec.inputs[0].dtype)
    return Unsupported(spec.op + ": input and output must have one type");
  const size_t r = spec.inputs[0].dims.size();
  if (r < 3 || r > 5)
    return Unsupported(spec.op + ": input rank " + std::to_string(r) + " (only 1-D, 2-D, 3-D pooling)");
  if (!spec.outputs.empty() && spec.outputs[0].channel_block != spec.inputs[0].channel_block)
    return Unsupported(spec.op + ": input and output must share one layout");
  return CheckLayout(spec.inputs[0], spec.op);
}

Status CheckOutput(const KernelSpec& spec, const Window& w) {
  const dims& x = spec.inputs[0].dims;
  dims y = {x[0], x[1]};
  y.insert(y.end(), w.out.begin(), w.out.end());
  if (spec.outputs[0].dims != y)
    return InvalidArgument(spec.op + ": output " + DimsString(spec.outputs[0].dims) + " does not match the computed " +
                           DimsString(y));
  return Status::Ok();
}

Result<PoolPlan> PlanWindowPool(const KernelSpec& spec) {
  const bool is_max = spec.op == "MaxPool";
  if (is_max && spec.outputs.size() > 1) return Unsupported("MaxPool: the Indices output (output 1) is not supported");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "only output 0 is supported"));
  GE_RETURN_IF_ERROR(CheckInput(spec));
  const dims& x = spec.inputs[0].dims;
  const dims in_sp(x.begin() + 2, x.end());
  if (!spec.attrs.Has("kernel_shape")) return InvalidArgument(spec.op + ": kernel_shape is required");
  const bool ceil_mode = spec.attrs.GetInt("ceil_mode", 0) != 0;
  PoolPlan p;
  GE_ASSIGN_OR_RETURN(p.win, ComputeWindow(spec.attrs, in_sp, spec.attrs.GetInts("kernel_shape"), ceil_mode));
  GE_RETURN_IF_ERROR(CheckOutput(spec, p.win));
  if (is_max) {
    p.alg = dnnl::algorithm::pooling_max;
  } else if (spec.attrs.GetInt("count_include_pad", 0) != 0) {
    // onnxruntime divides by the window clipped to input + declared pads;
    // oneDNN would count the extra end padding ceil_mode adds.
    if (p.win.extra_end_pad)
      return Unsupported("AveragePool: count_include_pad=1 with a ceil_mode window beyond the pads");
    p.alg = dnnl::algorithm::pooling_avg_include_padding;
  } else {
    p.alg = dnnl::algorithm::pooling_avg_exclude_padding;
  }
  return p;
}

Result<PoolPlan> PlanGlobalPool(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "only one output"));
  GE_RETURN_IF_ERROR(CheckInput(spec));
  const dims& x = spec.inputs[0].dims;
  const dims in_sp(x.begin() + 2, x.end());
  PoolPlan p;
  Attrs none;  // strides 1, no pads: the window is the whole image
  GE_ASSIGN_OR_RETURN(p.win, ComputeWindow(none, in_sp, in_sp, false));
  GE_RETURN_IF_ERROR(CheckOutput(spec, p.win));
  p.alg = spec.op == "GlobalMaxPool" ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
  return p;
}

class PoolKernel final : public DnnlKernel {
 public:
  explicit PoolKernel(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec, const PoolPlan& p) {
    x_ = UserMemory(LayoutDesc(spec.inputs[0]));
    y_ = UserMemory(LayoutDesc(spec.outputs[0]));
    auto make = [&](const dnnl::memory::desc& x, const dnnl::memory::desc& y) {
      dnnl::pooling_v2_forward::desc desc(dnnl::prop_kind::forward_inference, p.alg, x, y, p.win.DnnlStrides(),
                                          ToDims(p.win.kernel), p.win.DnnlDilations(), p.win.PadL(), p.win.PadR());
      return dnnl::pooling_v2_forward::primitive_desc(desc, ScratchpadAttr(), Engine());
    };
    auto pd = make(x_.get_desc(), y_.get_desc());
    dnnl::memory x = x_, y = y_;
    if (!IsJit(pd) && spec.inputs[0].channel_block == 0) {
      // oneDNN has no jit pooling for plain nchw on AVX2 (its simple loop is
      // ~10x slower): pool in the channel-blocked layout between reorders.
      const auto t = ChannelBlockedTag(spec.inputs[0].dims.size());
      const auto type = ToDnnl(spec.inputs[0].dtype);
      const dnnl::memory::desc xb(ToDims(spec.inputs[0].dims), type, t), yb(ToDims(spec.outputs[0].dims), type, t);
      try {
        auto bpd = make(xb, yb);
        if (IsJit(bpd)) {
          pd = bpd;
          x = dnnl::memory(xb, Engine());
          y = dnnl::memory(yb, Engine());
          steps_.push_back(MakeReorder(x_, x));
        }
      } catch (const dnnl::error&) {
        // no blocked implementation either: keep the plain one
      }
    }
    LogImpl(spec, "pool", pd, x != x_ ? "(channel-blocked between reorders)" : "");
    steps_.emplace_back(dnnl::pooling_v2_forward(pd), pd,
                        std::vector<std::pair<int, dnnl::memory>>{{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, y}});
    if (y != y_) steps_.push_back(MakeReorder(y, y_));
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    Bind(x_, in[0]);
    Bind(y_, out[0]);
    return Execute(steps_);
  }

 private:
  dnnl::memory x_, y_;
  std::vector<Step> steps_;
};

}  // namespace

void RegisterPoolKernels(KernelRegistry& r) {
  constexpr auto own = LayoutSupport::kOwn;
  // Indices and integer inputs take the plain loop (max_pool_loop_kernels.cc).
  r.Register(
      "MaxPool",
      [](const KernelSpec& s) { return NeedsMaxPoolLoop(s) ? CheckMaxPoolLoop(s) : SupportsPlan<PlanWindowPool>(s); },
      [](const KernelSpec& s) {
        return NeedsMaxPoolLoop(s) ? CreateMaxPoolLoop(s) : CreatePlanned<PoolKernel, PlanWindowPool>(s);
      },
      own);
  r.Register("AveragePool", SupportsPlan<PlanWindowPool>, CreatePlanned<PoolKernel, PlanWindowPool>, own);
  // f32 takes the own loop, threaded over channels (global_avg_pool.h);
  // oneDNN's checks still decide what is supported.
  r.Register(
      "GlobalAveragePool", SupportsPlan<PlanGlobalPool>,
      [](const KernelSpec& s) -> Result<std::unique_ptr<Kernel>> {
        if (OwnGlobalAvgPool(s)) {
          GE_RETURN_IF_ERROR(SupportsPlan<PlanGlobalPool>(s));
          return CreateOwnGlobalAvgPool(s);
        }
        return CreatePlanned<PoolKernel, PlanGlobalPool>(s);
      },
      own);
  r.Register("GlobalMaxPool", SupportsPlan<PlanGlobalPool>, CreatePlanned<PoolKernel, PlanGlobalPool>, own);
}

}  // namespace ge::hal
