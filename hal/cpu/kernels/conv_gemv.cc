// The loop of conv_gemv.h. Any layout of a [N, C, 1, ...] tensor is the
// same bytes (N rows of C), so the channel blocks of X and Y do not matter.
#include "kernels/conv_gemv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "kernels/activation_loop.h"
#include "kernels/dnnl_context.h"
#include "kernels/isa.h"

namespace ge::hal {
namespace {

using dnnl_util::Activation;

// y[o] = b[o] + sum_i x[i] * wt[i * m + o], one image.
[[gnu::always_inline]] inline void GemvBody(const float* x, const float* wt, const float* b, float* y, int64_t c,
                                        int64_t m) {
  if (b) {
    std::memcpy(y, b, static_cast<size_t>(m) * sizeof(float));
  } else {
    std::fill(y, y + m, 0.0f);
  }
  for (int64_t i = 0; i < c; ++i) {
    const float xi = x[i];
    const float* row = wt + i * m;
    for (int64_t o = 0; o < m; ++o) y[o] += xi * row[o];
  }
}

using GemvFn = void (*)(const float*, const float*, const float*, float*, int64_t, int64_t);

GE_TARGET_AVX512 void GemvAvx512(const float* x, const float* wt, const float* b, float* y, int64_t c, int64_t m) {
  GemvBody(x, wt, b, y, c, m);
}
GE_TARGET_AVX2 void GemvAvx2(const float* x, const float* wt, const float* b, float* y, int64_t c, int64_t m) {
  GemvBody(x, wt, b, y, c, m);
}
void GemvBaseline(const float* x, const float* wt, const float* b, float* y, int64_t c, int64_t m) {
  GemvBody(x, wt, b, y, c, m);
}

GemvFn PickGemv() {
  switch (BestIsa()) {
    case Isa::kAvx512: return GemvAvx512;
    case Isa::kAvx2: return GemvAvx2;
    case Isa::kBaseline: break;
  }
  return GemvBaseline;
}

void ApplyGemvActivation(const Activation& a, float* y, int64_t n) {
  switch (a.kind) {
    case FusedActivation::kNone: return;
    case FusedActivation::kRelu:
      for (int64_t i = 0; i < n; ++i) y[i] = std::max(y[i], 0.0f);
      return;
    case FusedActivation::kClip:
      for (int64_t i = 0; i < n; ++i) y[i] = std::min(std::max(y[i], a.min), a.max);
      return;
    case FusedActivation::kSigmoid:
    case FusedActivation::kSwish:
      dnnl_util::RunActivationAfter(a, y, n);
      return;
    case FusedActivation::kHardSwish:  // x * relu6(x + 3) / 6
      for (int64_t i = 0; i < n; ++i) y[i] *= std::min(1.0f, std::max(0.0f, y[i] / 6.0f + 0.5f));
      return;
    case FusedActivation::kHardSigmoid:
      for (int64_t i = 0; i < n; ++i) y[i] = std::min(1.0f, std::max(0.0f, a.alpha * y[i] + a.beta));
      return;
    case FusedActivation::kGelu:  // a Conv refuses it (ParseActivation)
      return;
  }
}

bool SpatialAllOnes(const std::vector<int64_t>& d, size_t from) {
  for (size_t i = from; i < d.size(); ++i)
    if (d[i] != 1) return false;
  return true;
}

class ConvGemvKernel final : public Kernel {
 public:
  ConvGemvKernel(const KernelSpec& spec, Activation act)
      : n_(spec.inputs[0].dims[0]), c_(spec.inputs[0].dims[1]), m_(spec.inputs[1].dims[0]), act_(act),
        gemv_(PickGemv()) {
    const auto* w = static_cast<const float*>(spec.ConstInput(1));
    wt_.resize(static_cast<size_t>(c_ * m_));
    for (int64_t o = 0; o < m_; ++o)
      for (int64_t i = 0; i < c_; ++i) wt_[i * m_ + o] = w[o * c_ + i];
    has_bias_ = spec.inputs.size() > 2 && spec.inputs[2].present();
  }

  Status Run(const void* const* in, void* const* out) override {
    const auto* x = static_cast<const float*>(in[0]);
    const auto* b = has_bias_ ? static_cast<const float*>(in[2]) : nullptr;
    auto* y = static_cast<float*>(out[0]);
    for (int64_t n = 0; n < n_; ++n) gemv_(x + n * c_, wt_.data(), b, y + n * m_, c_, m_);
    ApplyGemvActivation(act_, y, n_ * m_);
    return Status::Ok();
  }

 private:
  int64_t n_, c_, m_;
  Activation act_;
  GemvFn gemv_;
  bool has_bias_ = false;
  std::vector<float> wt_;  // W transposed: [C, M]
};

}  // namespace

bool ConvIsGemv(const KernelSpec& spec) {
  if (spec.inputs.size() < 2 || spec.inputs.size() > 3 || spec.outputs.size() != 1) return false;
  const TensorInfo &x = spec.inputs[0], &w = spec.inputs[1], &y = spec.outputs[0];
  if (x.dtype != DataType::kFloat32 || w.dtype != DataType::kFloat32 || y.dtype != DataType::kFloat32) return false;
  if (spec.inputs.size() > 2 && spec.inputs[2].present() && spec.inputs[2].dtype != DataType::kFloat32) return false;
  if (x.dims.size() < 3 || w.dims.size() != x.dims.size() || y.dims.size() != x.dims.size()) return false;
  if (!SpatialAllOnes(x.dims, 2) || !SpatialAllOnes(w.dims, 2) || !SpatialAllOnes(y.dims, 2)) return false;
  if (spec.attrs.GetInt("group", 1) != 1 || spec.attrs.GetInt(kAttrFusedSum, 0) != 0) return false;
  if (w.dims[1] != x.dims[1] || w.dims[0] * w.dims[1] > kConvGemvMaxMacs) return false;
  // Without pads a 1x1 window over a 1x1 image gives the one output for
  // any strides and dilations (SAME pads a 1x1 window by nothing).
  for (int64_t p : spec.attrs.GetInts("pads", {}))
    if (p != 0) return false;
  return spec.ConstInput(1) != nullptr;
}

Result<std::unique_ptr<Kernel>> CreateConvGemv(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(Activation act, dnnl_util::ParseActivation(spec.attrs));
  if (dnnl_util::Verbose())
    std::fprintf(stderr, "[ge kernel] %s (%s) conv: gemv:%s weights:transposed-once\n", spec.name.c_str(),
                 spec.op.c_str(), IsaName(BestIsa()));
  return std::unique_ptr<Kernel>(std::make_unique<ConvGemvKernel>(spec, act));
}

}  // namespace ge::hal
