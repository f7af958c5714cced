// CropAndResize (TensorFlow's, on NCHW): box r of boxes [R, 4], normalised
// (y1, x1, y2, x2) on image box_indices[r] of X [N, C, H, W], sampled at
// crop_height x crop_width points into Y [R, C, crop_height, crop_width].
// Point (y, x) reads the image at
//   in_y = y1 * (H - 1) + y * (y2 - y1) * (H - 1) / (crop_height - 1)
//   (crop_height 1: 0.5 * (y1 + y2) * (H - 1)), likewise in_x;
// a point outside [0, H - 1] x [0, W - 1] takes extrapolation_value;
// "bilinear" interpolates the four neighbours (x first, then y),
// "nearest" takes the one at roundf. The arithmetic is TF's CPU kernel's,
// in float, so points on an edge go the same way. A non-finite box or a
// box index outside [0, N) is a run-time error, as in TF.
#include <cmath>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;

struct CropPlan {
  int64_t n = 0, c = 0, h = 0, w = 0, boxes = 0, ch = 1, cw = 1;
  bool bilinear = true;
  float extrapolation = 0;
  DataType idx_type = DataType::kInt32;
};

Result<CropPlan> PlanCropAndResize(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 3, 3, 1, 1));
  const TensorInfo &x = spec.inputs[0], &boxes = spec.inputs[1], &idx = spec.inputs[2];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "X", {DataType::kFloat32}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, boxes, "boxes", {DataType::kFloat32}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.outputs[0], "Y", {DataType::kFloat32}));
  if (!IsIndexType(idx.dtype)) return NotSupported(spec, "box_indices must be int32 or int64");
  if (x.dims.size() != 4) return Bad(spec, "X " + DimsStr(x.dims) + " must be N x C x H x W");
  if (boxes.dims.size() != 2 || boxes.dims[1] != 4 || idx.dims != std::vector<int64_t>{boxes.dims[0]})
    return Bad(spec, "boxes " + DimsStr(boxes.dims) + " must be R x 4 and box_indices " + DimsStr(idx.dims) + " [R]");
  CropPlan p{x.dims[0], x.dims[1], x.dims[2], x.dims[3], boxes.dims[0],
             spec.attrs.GetInt("crop_height", 0), spec.attrs.GetInt("crop_width", 0)};
  if (p.ch < 1 || p.cw < 1) return Bad(spec, "crop_height and crop_width must be positive");
  if (p.h < 1 || p.w < 1) return Bad(spec, "the image must not be empty");
  const std::string method = spec.attrs.GetString("method", "bilinear");
  if (method != "bilinear" && method != "nearest") return Bad(spec, "method '" + method + "' is not bilinear or nearest");
  p.bilinear = method == "bilinear";
  p.extrapolation = spec.attrs.GetFloat("extrapolation_value", 0.f);
  p.idx_type = idx.dtype;
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, {p.boxes, p.c, p.ch, p.cw}));
  return p;
}

// Where one output row (or column) reads: two neighbours and the weight of
// the second (bilinear), or one (nearest, in lo); outside: extrapolate.
struct Sample {
  bool outside = false;
  int64_t lo = 0, hi = 0;
  float lerp = 0;
};

// TF's coordinate of output index i of `crop` points on an axis of `size`
// from normalised a to b: float arithmetic as its kernel does it.
std::vector<Sample> Samples(float a, float b, int64_t size, int64_t crop, bool bilinear) {
  const float limit = static_cast<float>(size - 1);
  const float scale = crop > 1 ? (b - a) * limit / static_cast<float>(crop - 1) : 0.f;
  std::vector<Sample> s(static_cast<size_t>(crop));
  for (int64_t i = 0; i < crop; ++i) {
    const float in = crop > 1 ? a * limit + static_cast<float>(i) * scale
                              : static_cast<float>(0.5 * static_cast<double>(a + b) * static_cast<double>(limit));
    Sample& t = s[static_cast<size_t>(i)];
    if (in < 0 || in > limit) {
      t.outside = true;
      continue;
    }
    if (bilinear) {
      t.lo = static_cast<int64_t>(std::floor(in));
      t.hi = static_cast<int64_t>(std::ceil(in));
      t.lerp = in - static_cast<float>(t.lo);
    } else {
      t.lo = t.hi = static_cast<int64_t>(std::round(in));
    }
  }
  return s;
}

Result<std::unique_ptr<Kernel>> CreateCropAndResize(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(CropPlan p, PlanCropAndResize(spec));
  return MakeKernel([p, where = Where(spec)](const void* const* in, void* const* out) -> Status {
    const float* x = static_cast<const float*>(in[0]);
    const float* boxes = static_cast<const float*>(in[1]);
    const std::vector<int64_t> batch =
        ReadInts(in[2], p.idx_type, static_cast<size_t>(p.boxes));
    for (int64_t r = 0; r < p.boxes; ++r) {
      for (int k = 0; k < 4; ++k)
        if (!std::isfinite(boxes[r * 4 + k]))
          return InvalidArgument(where + ": box " + std::to_string(r) + " has a value that is not finite");
      if (batch[static_cast<size_t>(r)] < 0 || batch[static_cast<size_t>(r)] >= p.n)
        return InvalidArgument(where + ": box index " + std::to_string(batch[static_cast<size_t>(r)]) +
                               " is out of range for " + std::to_string(p.n) + " images");
    }
    float* y = static_cast<float*>(out[0]);
    const int64_t plane = p.ch * p.cw;
    auto one_box = [&](int64_t r) {
      const float* box = boxes + r * 4;
      const std::vector<Sample> ys = Samples(box[0], box[2], p.h, p.ch, p.bilinear);
      const std::vector<Sample> xs = Samples(box[1], box[3], p.w, p.cw, p.bilinear);
      for (int64_t c = 0; c < p.c; ++c) {
        const float* img = x + (batch[static_cast<size_t>(r)] * p.c + c) * p.h * p.w;
        float* dst = y + (r * p.c + c) * plane;
        for (int64_t i = 0; i < p.ch; ++i) {
          const Sample& sy = ys[static_cast<size_t>(i)];
          for (int64_t j = 0; j < p.cw; ++j) {
            const Sample& sx = xs[static_cast<size_t>(j)];
            float& o = dst[i * p.cw + j];
            if (sy.outside || sx.outside) {
              o = p.extrapolation;
            } else if (!p.bilinear) {
              o = img[sy.lo * p.w + sx.lo];
            } else {
              const float tl = img[sy.lo * p.w + sx.lo], tr = img[sy.lo * p.w + sx.hi];
              const float bl = img[sy.hi * p.w + sx.lo], br = img[sy.hi * p.w + sx.hi];
              const float top = tl + (tr - tl) * sx.lerp;
              const float bottom = bl + (br - bl) * sx.lerp;
              o = top + (bottom - top) * sy.lerp;
            }
          }
        }
      }
    };
    if (p.boxes > 1 && p.boxes * p.c * plane >= kParallelMin) {
#pragma omp parallel for schedule(static)
      for (int64_t r = 0; r < p.boxes; ++r) one_box(r);
    } else {
      for (int64_t r = 0; r < p.boxes; ++r) one_box(r);
    }
    return Status::Ok();
  });
}

}  // namespace

void RegisterCropAndResizeKernels(KernelRegistry& r) {
  r.Register(
      "CropAndResize", [](const KernelSpec& s) { return PlanCropAndResize(s).status(); }, CreateCropAndResize);
}

}  // namespace ge::hal
