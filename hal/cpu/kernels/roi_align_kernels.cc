// RoiAlign (ONNX opset 16): each region of interest [x1, y1, x2, y2] (times
// spatial_scale, shifted by half a pixel in half_pixel mode) is cut into
// output_height x output_width bins; each bin averages (or maxes) bilinear
// samples on a regular grid of sampling_ratio points per axis (or
// ceil(bin size) when 0). The arithmetic follows onnxruntime's, in float,
// including its max mode (the largest weighted corner of any sample).
#include <algorithm>
#include <cmath>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;

struct RoiPlan {
  int64_t n = 0, c = 0, h = 0, w = 0, rois = 0, oh = 1, ow = 1, sampling = 0;
  float scale = 1.f;
  bool half_pixel = true, max = false;
  DataType idx_type = DataType::kInt64;
};

Result<RoiPlan> PlanRoiAlign(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 3, 3, 1, 1));
  const TensorInfo &x = spec.inputs[0], &rois = spec.inputs[1], &idx = spec.inputs[2];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "X", {DataType::kFloat32}));
  if (rois.dtype != x.dtype || spec.outputs[0].dtype != x.dtype) return Bad(spec, "X, rois and Y must share one dtype");
  if (!IsIndexType(idx.dtype)) return NotSupported(spec, "batch_indices must be int64 or int32");
  if (x.dims.size() != 4) return Bad(spec, "X " + DimsStr(x.dims) + " must be N x C x H x W");
  if (rois.dims.size() != 2 || rois.dims[1] != 4 || idx.dims != std::vector<int64_t>{rois.dims[0]})
    return Bad(spec, "rois " + DimsStr(rois.dims) + " must be R x 4 and batch_indices " + DimsStr(idx.dims) + " [R]");
  RoiPlan p{x.dims[0],
            x.dims[1],
            x.dims[2],
            x.dims[3],
            rois.dims[0],
            spec.attrs.GetInt("output_height", 1),
            spec.attrs.GetInt("output_width", 1),
            spec.attrs.GetInt("sampling_ratio", 0)};
  if (p.oh < 1 || p.ow < 1 || p.sampling < 0) return Bad(spec, "output sizes must be positive, sampling_ratio >= 0");
  p.scale = spec.attrs.GetFloat("spatial_scale", 1.f);
  const std::string ct = spec.attrs.GetString("coordinate_transformation_mode", "half_pixel");
  if (ct != "half_pixel" && ct != "output_half_pixel")
    return Bad(spec, "coordinate_transformation_mode '" + ct + "' is not half_pixel or output_half_pixel");
  p.half_pixel = ct == "half_pixel";
  const std::string mode = spec.attrs.GetString("mode", "avg");
  if (mode != "avg" && mode != "max") return Bad(spec, "mode '" + mode + "' is not avg or max");
  p.max = mode == "max";
  p.idx_type = idx.dtype;
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, {p.rois, p.c, p.oh, p.ow}));
  return p;
}

// The four corners and weights of one bilinear sample (all 0 outside).
struct Tap {
  int64_t at[4] = {0, 0, 0, 0};
  float wt[4] = {0, 0, 0, 0};
};

Tap Bilinear(float y, float x, int64_t h, int64_t w) {
  Tap t;
  if (y < -1.f || y > static_cast<float>(h) || x < -1.f || x > static_cast<float>(w)) return t;
  y = std::max(y, 0.f);
  x = std::max(x, 0.f);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1) y0 = y1 = h - 1, y = static_cast<float>(y0);
  if (x0 >= w - 1) x0 = x1 = w - 1, x = static_cast<float>(x0);
  const float ly = y - static_cast<float>(y0), lx = x - static_cast<float>(x0), hy = 1 - ly, hx = 1 - lx;
  t = {{y0 * w + x0, y0 * w + x1, y1 * w + x0, y1 * w + x1}, {hy * hx, hy * lx, ly * hx, ly * lx}};
  return t;
}

Result<std::unique_ptr<Kernel>> CreateRoiAlign(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(RoiPlan p, PlanRoiAlign(spec));
  return MakeKernel([p, where = Where(spec), taps = std::vector<Tap>()](const void* const* in,
                                                                        void* const* out) mutable -> Status {
    const float* x = static_cast<const float*>(in[0]);
    const float* rois = static_cast<const float*>(in[1]);
    float* y = static_cast<float*>(out[0]);
    const float offset = p.half_pixel ? 0.5f : 0.f;
    for (int64_t r = 0; r < p.rois; ++r) {
      const int64_t b = ReadInts(static_cast<const char*>(in[2]) + r * DataTypeSize(p.idx_type), p.idx_type, 1)[0];
      if (b < 0 || b >= p.n)
        return InvalidArgument(where + ": batch index " + std::to_string(b) + " is out of range for N " +
                               std::to_string(p.n));
      const float* roi = rois + r * 4;
      const float x1 = roi[0] * p.scale - offset, y1 = roi[1] * p.scale - offset;
      float rw = roi[2] * p.scale - offset - x1, rh = roi[3] * p.scale - offset - y1;
      if (!p.half_pixel) rw = std::max(rw, 1.f), rh = std::max(rh, 1.f);
      const float bh = rh / static_cast<float>(p.oh), bw = rw / static_cast<float>(p.ow);
      const int64_t gh = p.sampling > 0 ? p.sampling : static_cast<int64_t>(std::ceil(rh / static_cast<float>(p.oh)));
      const int64_t gw = p.sampling > 0 ? p.sampling : static_cast<int64_t>(std::ceil(rw / static_cast<float>(p.ow)));
      if (gh < 0 || gw < 0 || gh * gw > (int64_t{1} << 24))
        return InvalidArgument(where + ": region " + std::to_string(r) + " needs an unreasonable sampling grid");
      const float count = static_cast<float>(std::max<int64_t>(gh * gw, 1));
      // The taps of every bin, shared by all channels.
      taps.clear();
      for (int64_t ph = 0; ph < p.oh; ++ph)
        for (int64_t pw = 0; pw < p.ow; ++pw)
          for (int64_t iy = 0; iy < gh; ++iy)
            for (int64_t ix = 0; ix < gw; ++ix)
              taps.push_back(Bilinear(
                  y1 + static_cast<float>(ph) * bh + (static_cast<float>(iy) + .5f) * bh / static_cast<float>(gh),
                  x1 + static_cast<float>(pw) * bw + (static_cast<float>(ix) + .5f) * bw / static_cast<float>(gw), p.h,
                  p.w));
      const int64_t per_bin = gh * gw;
      for (int64_t ch = 0; ch < p.c; ++ch) {
        const float* img = x + (b * p.c + ch) * p.h * p.w;
        for (int64_t bin = 0; bin < p.oh * p.ow; ++bin) {
          float acc = 0;
          for (int64_t s = 0; s < per_bin; ++s) {
            const Tap& t = taps[static_cast<size_t>(bin * per_bin + s)];
            if (p.max) {
              float m = t.wt[0] * img[t.at[0]];
              for (int k = 1; k < 4; ++k) m = std::max(m, t.wt[k] * img[t.at[k]]);
              acc = s == 0 ? m : std::max(acc, m);
            } else {
              for (int k = 0; k < 4; ++k) acc += t.wt[k] * img[t.at[k]];
            }
          }
          *y++ = p.max ? acc : acc / count;
        }
      }
    }
    return Status::Ok();
  });
}

}  // namespace

void RegisterRoiAlignKernels(KernelRegistry& r) {
  r.Register(
      "RoiAlign", [](const KernelSpec& s) { return PlanRoiAlign(s).status(); }, CreateRoiAlign);
}

}  // namespace ge::hal
