// The Lp family and MaxRoiPool as plain loops (f32, f64): no oneDNN
// primitive computes a p-norm over a window, and these ops are rare enough
// in inference graphs that a loop is the right cost.
//  - LpPool: (sum over the window's taps inside the input of |x|^p)^(1/p);
//    padding contributes nothing (a zero), as in onnxruntime. Any p >= 1.
//  - GlobalLpPool: the same over every spatial position.
//  - LpNormalization: x / ||x||_p along one axis, p 1 or 2; a zero norm
//    gives 0 (onnxruntime divides only where the norm is non-zero).
//  - MaxRoiPool (Caffe's ROI pooling): each roi (batch, x1, y1, x2, y2) is
//    scaled by spatial_scale and rounded, split into pooled_h x pooled_w bins
//    (floor of the start, ceil of the end), each bin's max; an empty bin is 0.
#include <cmath>
#include <limits>

#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"
#include "kernels/loop_common.h"
#include "kernels/window3.h"

namespace ge::hal {
namespace {

using namespace loop;

const std::initializer_list<DataType> kFloats = {DataType::kFloat32, DataType::kFloat64};

template <typename T>
T PowP(T v, int64_t p) {
  v = std::abs(v);
  return p == 1 ? v : p == 2 ? v * v : std::pow(v, static_cast<T>(p));
}

template <typename T>
T RootP(T s, int64_t p) {
  return p == 1 ? s : p == 2 ? std::sqrt(s) : std::pow(s, T(1) / static_cast<T>(p));
}

Result<int64_t> ReadP(const KernelSpec& spec) {
  const int64_t p = spec.attrs.GetInt("p", 2);
  if (p < 1) return Bad(spec, "p must be at least 1, but is " + std::to_string(p));
  return p;
}

struct LpPoolPlan {
  int64_t planes = 0;
  Window3 w;
  int64_t p = 2;
  DataType dtype = DataType::kFloat32;
};

Result<LpPoolPlan> PlanLpPool(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "input", kFloats));
  const size_t rank = x.dims.size();
  if (rank < 3 || rank > 5) return NotSupported(spec, "input rank " + std::to_string(rank) + " (only 1-D to 3-D)");
  const std::vector<int64_t> in_sp(x.dims.begin() + 2, x.dims.end());
  LpPoolPlan plan;
  GE_ASSIGN_OR_RETURN(plan.p, ReadP(spec));
  plan.planes = x.dims[0] * x.dims[1];
  plan.dtype = x.dtype;
  std::vector<int64_t> want = {x.dims[0], x.dims[1]};
  if (spec.op == "GlobalLpPool") {
    dnnl_util::Window whole;
    for (int64_t d : in_sp) {
      whole.out.push_back(1), whole.kernel.push_back(d), whole.strides.push_back(1);
      whole.dilations.push_back(1), whole.pad_begin.push_back(0), whole.pad_end.push_back(0);
    }
    plan.w = Window3(whole, in_sp);
    want.insert(want.end(), in_sp.size(), 1);
  } else {
    if (!spec.attrs.Has("kernel_shape")) return Bad(spec, "kernel_shape is required");
    auto win = dnnl_util::ComputeWindow(spec.attrs, in_sp, spec.attrs.GetInts("kernel_shape"),
                                        spec.attrs.GetInt("ceil_mode", 0) != 0);
    if (!win.ok()) return Bad(spec, win.status().message());
    plan.w = Window3(*win, in_sp);
    want.insert(want.end(), win->out.begin(), win->out.end());
  }
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output dtype must be the input's");
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  return plan;
}

template <typename T>
Result<std::unique_ptr<Kernel>> MakeLpPool(const LpPoolPlan& plan) {
  return MakeKernel([plan](const void* const* in, void* const* out) {
    const T* x = static_cast<const T*>(in[0]);
    T* y = static_cast<T*>(out[0]);
    const Window3& w = plan.w;
    const int64_t plane = w.plane(), per_plane = w.out[0] * w.out[1] * w.out[2];
    ParallelFor(plan.planes, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        const T* xc = x + c * plane;
        T* yc = y + c * per_plane;
        for (int64_t od = 0; od < w.out[0]; ++od)
          for (int64_t oh = 0; oh < w.out[1]; ++oh)
            for (int64_t ow = 0; ow < w.out[2]; ++ow) {
              T sum = 0;
              w.ForEachTap(od, oh, ow, [&](int64_t id, int64_t ih, int64_t iw, int64_t) {
                sum += PowP(xc[(id * w.in[1] + ih) * w.in[2] + iw], plan.p);
              });
              *yc++ = RootP(sum, plan.p);
            }
      }
    });
    return Status::Ok();
  });
}

Result<std::unique_ptr<Kernel>> CreateLpPool(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(LpPoolPlan plan, PlanLpPool(spec));
  return plan.dtype == DataType::kFloat64 ? MakeLpPool<double>(plan) : MakeLpPool<float>(plan);
}

struct LpNormPlan {
  int64_t outer = 0, axis = 0, inner = 0, p = 2;
  DataType dtype = DataType::kFloat32;
};

Result<LpNormPlan> PlanLpNorm(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "input", kFloats));
  LpNormPlan plan;
  plan.p = spec.attrs.GetInt("p", 2);
  if (plan.p != 1 && plan.p != 2) return Bad(spec, "p must be 1 or 2, but is " + std::to_string(plan.p));
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (rank == 0) return Bad(spec, "the input must have at least one axis");
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, spec.attrs.GetInt("axis", -1), rank));
  plan.outer = Product(x.dims, 0, static_cast<size_t>(axis));
  plan.axis = x.dims[static_cast<size_t>(axis)];
  plan.inner = Product(x.dims, static_cast<size_t>(axis) + 1, x.dims.size());
  plan.dtype = x.dtype;
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output dtype must be the input's");
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, x.dims));
  return plan;
}

template <typename T>
Result<std::unique_ptr<Kernel>> MakeLpNorm(const LpNormPlan& plan) {
  return MakeKernel([plan](const void* const* in, void* const* out) {
    const T* x = static_cast<const T*>(in[0]);
    T* y = static_cast<T*>(out[0]);
    ParallelFor(plan.outer * plan.inner, [&](int64_t begin, int64_t end) {
      for (int64_t k = begin; k < end; ++k) {
        const int64_t base = (k / plan.inner) * plan.axis * plan.inner + k % plan.inner;
        T sum = 0;
        for (int64_t a = 0; a < plan.axis; ++a) sum += PowP(x[base + a * plan.inner], plan.p);
        const T norm = RootP(sum, plan.p);
        for (int64_t a = 0; a < plan.axis; ++a) {
          const int64_t i = base + a * plan.inner;
          y[i] = norm == T(0) ? T(0) : x[i] / norm;
        }
      }
    });
    return Status::Ok();
  });
}

Result<std::unique_ptr<Kernel>> CreateLpNorm(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(LpNormPlan plan, PlanLpNorm(spec));
  return plan.dtype == DataType::kFloat64 ? MakeLpNorm<double>(plan) : MakeLpNorm<float>(plan);
}

struct RoiPoolPlan {
  int64_t n = 0, c = 0, h = 0, w = 0, rois = 0, ph = 0, pw = 0;
  float scale = 1.0f;
  DataType dtype = DataType::kFloat32;
};

Result<RoiPoolPlan> PlanRoiPool(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  const TensorInfo& rois = spec.inputs[1];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "X", kFloats));
  if (rois.dtype != x.dtype) return Bad(spec, "rois must have X's dtype");
  if (x.dims.size() != 4) return Bad(spec, "X must be N x C x H x W, but is " + DimsStr(x.dims));
  if (rois.dims.size() != 2 || rois.dims[1] != 5) return Bad(spec, "rois must be [num_rois, 5], but is " + DimsStr(rois.dims));
  const std::vector<int64_t> pooled = spec.attrs.GetInts("pooled_shape");
  if (pooled.size() != 2 || pooled[0] <= 0 || pooled[1] <= 0) return Bad(spec, "pooled_shape must be two positive sizes");
  RoiPoolPlan plan{x.dims[0], x.dims[1], x.dims[2], x.dims[3], rois.dims[0], pooled[0], pooled[1],
                   spec.attrs.GetFloat("spatial_scale", 1.0f), x.dtype};
  if (!std::isfinite(plan.scale) || plan.scale <= 0) return Bad(spec, "spatial_scale must be a positive number");
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, {plan.rois, plan.c, plan.ph, plan.pw}));
  return plan;
}

template <typename T>
Result<std::unique_ptr<Kernel>> MakeRoiPool(const RoiPoolPlan& p) {
  return MakeKernel([p](const void* const* in, void* const* out) -> Status {
    const T* x = static_cast<const T*>(in[0]);
    const T* rois = static_cast<const T*>(in[1]);
    T* y = static_cast<T*>(out[0]);
    for (int64_t r = 0; r < p.rois; ++r) {
      const T* roi = rois + r * 5;
      // A batch index outside X is the model's data, not ours to read past.
      if (!(roi[0] >= 0 && roi[0] < static_cast<T>(p.n)))
        return InvalidArgument("MaxRoiPool: roi " + std::to_string(r) + " names batch " + std::to_string(roi[0]) +
                               ", but X has " + std::to_string(p.n));
      const int64_t b = static_cast<int64_t>(roi[0]);
      auto scaled = [&](T v) { return static_cast<int64_t>(std::round(static_cast<double>(v) * p.scale)); };
      const int64_t x1 = scaled(roi[1]), y1 = scaled(roi[2]), x2 = scaled(roi[3]), y2 = scaled(roi[4]);
      const double bin_h = static_cast<double>(std::max<int64_t>(y2 - y1 + 1, 1)) / static_cast<double>(p.ph);
      const double bin_w = static_cast<double>(std::max<int64_t>(x2 - x1 + 1, 1)) / static_cast<double>(p.pw);
      for (int64_t c = 0; c < p.c; ++c) {
        const T* xc = x + (b * p.c + c) * p.h * p.w;
        T* yc = y + (r * p.c + c) * p.ph * p.pw;
        for (int64_t i = 0; i < p.ph; ++i) {
          const int64_t h0 = std::clamp<int64_t>(static_cast<int64_t>(std::floor(i * bin_h)) + y1, 0, p.h);
          const int64_t h1 = std::clamp<int64_t>(static_cast<int64_t>(std::ceil((i + 1) * bin_h)) + y1, 0, p.h);
          for (int64_t j = 0; j < p.pw; ++j) {
            const int64_t w0 = std::clamp<int64_t>(static_cast<int64_t>(std::floor(j * bin_w)) + x1, 0, p.w);
            const int64_t w1 = std::clamp<int64_t>(static_cast<int64_t>(std::ceil((j + 1) * bin_w)) + x1, 0, p.w);
            T best = std::numeric_limits<T>::lowest();
            bool any = false;
            for (int64_t hh = h0; hh < h1; ++hh)
              for (int64_t ww = w0; ww < w1; ++ww) best = std::max(best, xc[hh * p.w + ww]), any = true;
            yc[i * p.pw + j] = any ? best : T(0);
          }
        }
      }
    }
    return Status::Ok();
  });
}

Result<std::unique_ptr<Kernel>> CreateRoiPool(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(RoiPoolPlan plan, PlanRoiPool(spec));
  return plan.dtype == DataType::kFloat64 ? MakeRoiPool<double>(plan) : MakeRoiPool<float>(plan);
}

}  // namespace

void RegisterLpKernels(KernelRegistry& r) {
  for (const char* op : {"LpPool", "GlobalLpPool"})
    r.Register(op, [](const KernelSpec& s) { return PlanLpPool(s).status(); }, CreateLpPool);
  r.Register("LpNormalization", [](const KernelSpec& s) { return PlanLpNorm(s).status(); }, CreateLpNorm);
  r.Register("MaxRoiPool", [](const KernelSpec& s) { return PlanRoiPool(s).status(); }, CreateRoiPool);
}

}  // namespace ge::hal
