// ONNX Softmax and LogSoftmax on oneDNN softmax (v2), and Hardmax (1 at
// the first maximum, 0 elsewhere) as a plain loop over the same view.
//
// Opset >= 13 normalizes over one axis (default -1); opset < 13 flattens the
// input to 2-D at axis (default 1) and normalizes each row. The compiler
// passes the model's opset as attr "_opset"; absent means 13 semantics. Either
// way the tensor is viewed as [outer, n, inner] (inner = 1 dropped), which is
// the same data in the same row-major order.
#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using dims = std::vector<int64_t>;

struct SoftmaxView {
  int64_t outer = 1, n = 1, inner = 1;
};

Result<SoftmaxView> PlanSoftmax(const KernelSpec& spec) {
  if (spec.inputs.size() != 1) return InvalidArgument(spec.op + " takes one input");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "one output"));
  GE_RETURN_IF_ERROR(RequireStaticF32(spec));
  const dims& x = spec.inputs[0].dims;
  if (spec.outputs[0].dims != x) return InvalidArgument(spec.op + ": output shape differs from the input");
  const int64_t r = static_cast<int64_t>(x.size());
  const bool legacy = spec.attrs.GetInt("_opset", 13) < 13;
  const int64_t given = spec.attrs.GetInt("axis", legacy ? 1 : -1);
  const int64_t axis = given < 0 ? given + r : given;
  if (r == 0 || axis < 0 || axis >= r)
    return InvalidArgument(spec.op + ": axis " + std::to_string(given) + " out of range for rank " + std::to_string(r));
  SoftmaxView v;
  for (int64_t i = 0; i < r; ++i) {
    if (i < axis) {
      v.outer *= x[i];
    } else if (i == axis || legacy) {
      v.n *= x[i];
    } else {
      v.inner *= x[i];
    }
  }
  return v;
}

class SoftmaxKernel final : public DnnlKernel {
 public:
  explicit SoftmaxKernel(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec, const SoftmaxView& v) {
    empty_ = v.outer * v.n * v.inner == 0;
    if (empty_) return Status::Ok();
    const auto md = v.inner == 1 ? PlainDesc({v.outer, v.n}) : PlainDesc({v.outer, v.n, v.inner});
    const auto alg = spec.op == "LogSoftmax" ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate;
    dnnl::softmax_v2_forward::desc desc(dnnl::prop_kind::forward_inference, alg, md, md, 1);
    dnnl::softmax_v2_forward::primitive_desc pd(desc, ScratchpadAttr(), Engine());
    LogImpl(spec, "softmax", pd);
    x_ = UserMemory(md);
    y_ = UserMemory(md);
    steps_.emplace_back(dnnl::softmax_v2_forward(pd), pd,
                        std::vector<std::pair<int, dnnl::memory>>{{DNNL_ARG_SRC, x_}, {DNNL_ARG_DST, y_}});
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    if (empty_) return Status::Ok();
    Bind(x_, in[0]);
    Bind(y_, out[0]);
    return Execute(steps_);
  }

 private:
  dnnl::memory x_, y_;
  bool empty_ = false;
  std::vector<Step> steps_;
};

// Per (outer, inner) position the first index of the largest value along n
// gets 1; ties go to the lowest index, as numpy's argmax. NaN never wins.
Result<std::unique_ptr<Kernel>> CreateHardmax(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(SoftmaxView v, PlanSoftmax(spec));
  return loop::MakeKernel([v](const void* const* in, void* const* out) {
    const float* x = static_cast<const float*>(in[0]);
    float* y = static_cast<float*>(out[0]);
    std::fill(y, y + v.outer * v.n * v.inner, 0.0f);
    if (v.n == 0) return Status::Ok();
    for (int64_t o = 0; o < v.outer; ++o) {
      const float* xo = x + o * v.n * v.inner;
      for (int64_t i = 0; i < v.inner; ++i) {
        int64_t best = 0;
        for (int64_t k = 1; k < v.n; ++k)
          if (xo[k * v.inner + i] > xo[best * v.inner + i] || xo[best * v.inner + i] != xo[best * v.inner + i])
            best = k;
        y[(o * v.n + best) * v.inner + i] = 1.0f;
      }
    }
    return Status::Ok();
  });
}

}  // namespace

void RegisterSoftmaxKernels(KernelRegistry& r) {
  r.Register("Softmax", SupportsPlan<PlanSoftmax>, CreatePlanned<SoftmaxKernel, PlanSoftmax>);
  r.Register("LogSoftmax", SupportsPlan<PlanSoftmax>, CreatePlanned<SoftmaxKernel, PlanSoftmax>);
  r.Register("Hardmax", [](const KernelSpec& spec) { return PlanSoftmax(spec).status(); }, CreateHardmax);
}

}  // namespace ge::hal
