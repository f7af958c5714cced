// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, f32 and f64, with
// i32 or i64 targets.
//
// Both view the scores as [N, C, D] (D: the product of d1..dk) and the
// targets as [N, D]. SoftmaxCrossEntropyLoss is the NLL of
// log_softmax(scores) along C: per n it computes each position's
// log-sum-exp once (shifted by the maximum, so large scores do not overflow)
// and reads x[n, t, d] - lse[d] where NLL reads x[n, t, d]; one loop serves
// both. A target outside [0, C) that is not ignore_index is a run-time error,
// never a read outside the scores. Sums are accumulated in double.
#include <cmath>
#include <limits>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using D = DataType;

enum class Reduction { kNone, kSum, kMean };

struct LossPlan {
  int64_t n = 0, c = 0, d = 1;
  Reduction reduction = Reduction::kMean;
  bool has_ignore = false;
  int64_t ignore = 0;
  bool weighted = false;
  bool softmax = false;   // SoftmaxCrossEntropyLoss
  bool log_prob = false;  // its second output is wanted
};

Result<Reduction> ReadReduction(const KernelSpec& spec) {
  const std::string r = spec.attrs.GetString("reduction", "mean");
  if (r == "none") return Reduction::kNone;
  if (r == "sum") return Reduction::kSum;
  if (r == "mean") return Reduction::kMean;
  return Bad(spec, "reduction '" + r + "' is not one of none, sum, mean");
}

Result<LossPlan> PlanLoss(const KernelSpec& spec) {
  LossPlan p;
  p.softmax = spec.op == "SoftmaxCrossEntropyLoss";
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 3, 1, p.softmax ? 2 : 1));
  const TensorInfo &x = spec.inputs[0], &t = spec.inputs[1];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "scores", {D::kFloat32, D::kFloat64}));
  if (!IsIndexType(t.dtype))
    return NotSupported(spec, std::string("targets dtype ") + DataTypeName(t.dtype) + " is not supported (i64, i32)");
  if (x.dims.size() < 2) return Bad(spec, "scores must be N x C x d1..dk, but are " + DimsStr(x.dims));
  std::vector<int64_t> target_dims = x.dims;
  target_dims.erase(target_dims.begin() + 1);
  if (t.dims != target_dims)
    return Bad(spec, "targets " + DimsStr(t.dims) + " must be the scores " + DimsStr(x.dims) + " without dim 1");
  p.n = x.dims[0];
  p.c = x.dims[1];
  p.d = Product(x.dims, 2, x.dims.size());
  p.weighted = HasInput(spec, 2);
  if (p.weighted) {
    const TensorInfo& w = spec.inputs[2];
    if (w.dtype != x.dtype || w.dims != std::vector<int64_t>{p.c})
      return Bad(spec, std::string("weight ") + DataTypeName(w.dtype) + DimsStr(w.dims) + " must be a " +
                           DataTypeName(x.dtype) + " vector of the " + std::to_string(p.c) + " classes");
  }
  GE_ASSIGN_OR_RETURN(p.reduction, ReadReduction(spec));
  p.has_ignore = spec.attrs.Has("ignore_index");
  p.ignore = spec.attrs.GetInt("ignore_index", 0);
  for (size_t j = 0; j < spec.outputs.size(); ++j)
    if (spec.outputs[j].dtype != x.dtype)
      return Bad(spec, "output " + std::to_string(j) + " dtype " + DataTypeName(spec.outputs[j].dtype) +
                           " differs from the scores' " + DataTypeName(x.dtype));
  GE_RETURN_IF_ERROR(
      CheckOutputDims(spec, 0, p.reduction == Reduction::kNone ? target_dims : std::vector<int64_t>{}));
  p.log_prob = spec.outputs.size() == 2;
  if (p.log_prob) GE_RETURN_IF_ERROR(CheckOutputDims(spec, 1, x.dims));
  return p;
}

// lse[j] = log(sum_c exp(x[c * d + j])) for j in [0, d), by the maximum
// shift; the loops run along contiguous j. `max` is scratch of d values.
template <typename T>
void LogSumExp(const T* x, int64_t c, int64_t d, T* max, T* lse) {
  if (c == 0) {
    std::fill(lse, lse + d, -std::numeric_limits<T>::infinity());
    return;
  }
  std::copy(x, x + d, max);
  for (int64_t k = 1; k < c; ++k)
    for (int64_t j = 0; j < d; ++j) max[j] = std::max(max[j], x[k * d + j]);
  std::fill(lse, lse + d, T{0});
  for (int64_t k = 0; k < c; ++k)
    for (int64_t j = 0; j < d; ++j) lse[j] += std::exp(x[k * d + j] - max[j]);
  for (int64_t j = 0; j < d; ++j) lse[j] = max[j] + std::log(lse[j]);
}

template <typename T, typename I>
class LossKernel final : public Kernel {
 public:
  LossKernel(LossPlan p, std::string where)
      : p_(p), where_(std::move(where)), scratch_(p.softmax ? static_cast<size_t>(2 * p.d) : 0) {}

  Status Run(const void* const* in, void* const* out) override {
    const T* x = static_cast<const T*>(in[0]);
    const I* target = static_cast<const I*>(in[1]);
    const T* weight = p_.weighted ? static_cast<const T*>(in[2]) : nullptr;
    T* loss = static_cast<T*>(out[0]);
    T* log_prob = p_.log_prob ? static_cast<T*>(out[1]) : nullptr;
    const int64_t c = p_.c, d = p_.d;
    const bool each = p_.reduction == Reduction::kNone;
    T* lse = p_.softmax ? scratch_.data() + d : nullptr;
    double sum = 0, weights = 0;
    for (int64_t n = 0; n < p_.n; ++n) {
      const T* xn = x + n * c * d;
      const I* tn = target + n * d;
      if (lse) {
        LogSumExp(xn, c, d, scratch_.data(), lse);
        if (log_prob)
          for (int64_t k = 0; k < c; ++k)
            for (int64_t j = 0; j < d; ++j) log_prob[(n * c + k) * d + j] = xn[k * d + j] - lse[j];
      }
      for (int64_t j = 0; j < d; ++j) {
        const int64_t k = static_cast<int64_t>(tn[j]);
        if (p_.has_ignore && k == p_.ignore) {
          if (each) loss[n * d + j] = T{0};
          continue;
        }
        if (k < 0 || k >= c)
          return InvalidArgument(where_ + ": target " + std::to_string(k) + " is out of range for " +
                                 std::to_string(c) + " classes");
        const T w = weight ? weight[k] : T{1};
        const T v = -w * (lse ? xn[k * d + j] - lse[j] : xn[k * d + j]);
        if (each) loss[n * d + j] = v;
        sum += v;
        weights += w;
      }
    }
    // The mean divides by the weights of the targets that count (their number
    // when unweighted); all of them ignored gives 0 / 0, NaN, as in ONNX.
    if (!each) loss[0] = static_cast<T>(p_.reduction == Reduction::kMean ? sum / weights : sum);
    return Status::Ok();
  }

 private:
  LossPlan p_;
  std::string where_;
  std::vector<T> scratch_;  // SoftmaxCrossEntropyLoss: max and lse per position, sized at Create
};

Result<std::unique_ptr<Kernel>> CreateLoss(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(LossPlan p, PlanLoss(spec));
  const bool f64 = spec.inputs[0].dtype == D::kFloat64, i64 = spec.inputs[1].dtype == D::kInt64;
  const std::string where = Where(spec);
  if (f64 && i64) return std::unique_ptr<Kernel>(new LossKernel<double, int64_t>(p, where));
  if (f64) return std::unique_ptr<Kernel>(new LossKernel<double, int32_t>(p, where));
  if (i64) return std::unique_ptr<Kernel>(new LossKernel<float, int64_t>(p, where));
  return std::unique_ptr<Kernel>(new LossKernel<float, int32_t>(p, where));
}

}  // namespace

void RegisterLossKernels(KernelRegistry& r) {
  for (const char* op : {"NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"})
    r.Register(
        op, [](const KernelSpec& s) { return PlanLoss(s).status(); }, CreateLoss);
}

}  // namespace ge::hal
