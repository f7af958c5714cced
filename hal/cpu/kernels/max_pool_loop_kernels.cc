// MaxPool as a loop over each window (1-D to 3-D, pads, dilations,
// ceil_mode, auto_pad as ComputeWindow reads them), for f32, f64, u8 and
// i8, with the optional Indices output: the first largest value in the scan
// order wins (as onnxruntime), its index flattened over the whole input,
// (n*C + c) * spatial + position, the position row-major (storage_order 0)
// or column-major (1).
#include <limits>

#include "kernels/dnnl_context.h"
#include "kernels/loop_common.h"
#include "kernels/max_pool_loop.h"
#include "kernels/window3.h"

namespace ge::hal {
namespace {

using namespace loop;

struct LoopPlan {
  int64_t planes = 0;  // N * C
  Window3 w;
  bool col_major = false, indices = false;
};

Result<LoopPlan> PlanLoop(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 2));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(
      CheckDtype(spec, x, "input", {DataType::kFloat32, DataType::kFloat64, DataType::kUInt8, DataType::kInt8}));
  for (const auto& t : spec.outputs)
    if (t.channel_block != 0 || x.channel_block != 0) return NotSupported(spec, "the loop takes plain layouts only");
  const size_t rank = x.dims.size();
  if (rank < 3 || rank > 5) return NotSupported(spec, "input rank " + std::to_string(rank) + " (only 1-D to 3-D)");
  if (!spec.attrs.Has("kernel_shape")) return Bad(spec, "kernel_shape is required");
  const std::vector<int64_t> in_sp(x.dims.begin() + 2, x.dims.end());
  auto win = dnnl_util::ComputeWindow(spec.attrs, in_sp, spec.attrs.GetInts("kernel_shape"),
                                      spec.attrs.GetInt("ceil_mode", 0) != 0);
  if (!win.ok()) return Bad(spec, win.status().message());
  LoopPlan p;
  p.planes = x.dims[0] * x.dims[1];
  p.w = Window3(*win, in_sp);
  std::vector<int64_t> want = {x.dims[0], x.dims[1]};
  want.insert(want.end(), win->out.begin(), win->out.end());
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output dtype must be the input's");
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  p.indices = spec.outputs.size() == 2;
  if (p.indices) {
    if (spec.outputs[1].dtype != DataType::kInt64) return Bad(spec, "Indices must be int64");
    GE_RETURN_IF_ERROR(CheckOutputDims(spec, 1, want));
  }
  p.col_major = spec.attrs.GetInt("storage_order", 0) != 0;
  return p;
}

template <typename T>
Result<std::unique_ptr<Kernel>> MakeLoop(const LoopPlan& p) {
  return MakeKernel([p](const void* const* in, void* const* out) {
    const T* x = static_cast<const T*>(in[0]);
    T* y = static_cast<T*>(out[0]);
    int64_t* idx = p.indices ? static_cast<int64_t*>(out[1]) : nullptr;
    const Window3& w = p.w;
    const int64_t plane = w.plane();
    int64_t o = 0;
    for (int64_t c = 0; c < p.planes; ++c) {
      const T* xc = x + c * plane;
      for (int64_t od = 0; od < w.out[0]; ++od)
        for (int64_t oh = 0; oh < w.out[1]; ++oh)
          for (int64_t ow = 0; ow < w.out[2]; ++ow, ++o) {
            T best = std::numeric_limits<T>::lowest();
            int64_t bd = -1, bh = -1, bw = -1;
            w.ForEachTap(od, oh, ow, [&](int64_t id, int64_t ih, int64_t iw, int64_t) {
              const T v = xc[(id * w.in[1] + ih) * w.in[2] + iw];
              if (bd < 0 || v > best) best = v, bd = id, bh = ih, bw = iw;
            });
            y[o] = best;
            if (!idx) continue;
            const int64_t pos = p.col_major ? (bw * w.in[1] + bh) * w.in[0] + bd : (bd * w.in[1] + bh) * w.in[2] + bw;
            idx[o] = bd < 0 ? -1 : c * plane + pos;
          }
    }
    return Status::Ok();
  });
}

}  // namespace

bool NeedsMaxPoolLoop(const KernelSpec& spec) {
  if (spec.outputs.size() > 1 || spec.inputs.empty()) return spec.outputs.size() > 1;
  const DataType t = spec.inputs[0].dtype;
  return t != DataType::kFloat32 && !(t == DataType::kBFloat16 && dnnl_util::HasNativeBf16());
}

Status CheckMaxPoolLoop(const KernelSpec& spec) { return PlanLoop(spec).status(); }

Result<std::unique_ptr<Kernel>> CreateMaxPoolLoop(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(LoopPlan p, PlanLoop(spec));
  switch (spec.inputs[0].dtype) {
    case DataType::kFloat64: return MakeLoop<double>(p);
    case DataType::kUInt8: return MakeLoop<uint8_t>(p);
    case DataType::kInt8: return MakeLoop<int8_t>(p);
    default: return MakeLoop<float>(p);
  }
}

}  // namespace ge::hal
