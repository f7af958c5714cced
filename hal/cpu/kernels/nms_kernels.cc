// NonMaxSuppression (ONNX opset 10/11) as the ONNX reference computes it:
// per batch and class, the boxes scoring above score_threshold (every box
// when it is absent), best score first and, on equal scores, the lower box
// index first; a box is kept unless its IoU with one kept before exceeds
// iou_threshold, up to max_output_boxes_per_class (absent: none). Output:
// int64 [selected, 3] rows of (batch, class, box). Corners come in either
// order; center_point_box=1 reads [x_center, y_center, width, height]. The
// arithmetic is the reference's, in float, so boxes on the threshold go the
// same way.
#include <algorithm>
#include <cmath>

#include "cpu_kernels.h"
#include "kernels/computed_kernel.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using D = DataType;

struct NmsPlan {
  int64_t batches = 0, classes = 0, boxes = 0;
  bool center = false;
  // Optional scalars; a present one without elements counts as absent (the reference's rule).
  bool has_max = false, has_iou = false, has_score = false;
  DataType max_type = D::kInt64;
};

struct Selection {
  OutputShapes dims;
  std::vector<int64_t> rows;  // (batch, class, box) triples
};

Result<NmsPlan> PlanNms(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 5, 1, 1, /*computed_outputs=*/true));
  const TensorInfo& boxes = spec.inputs[0];
  const TensorInfo& scores = spec.inputs[1];
  GE_RETURN_IF_ERROR(CheckDtype(spec, boxes, "boxes", {D::kFloat32}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, scores, "scores", {D::kFloat32}));
  if (boxes.dims.size() != 3 || boxes.dims[2] != 4)
    return Bad(spec, "boxes must be [batches, boxes, 4], got " + DimsStr(boxes.dims));
  if (scores.dims.size() != 3 || scores.dims[0] != boxes.dims[0] || scores.dims[2] != boxes.dims[1])
    return Bad(spec, "scores " + DimsStr(scores.dims) + " must be [batches, classes, boxes] for boxes " +
                         DimsStr(boxes.dims));
  NmsPlan p{boxes.dims[0], scores.dims[1], boxes.dims[1]};
  const int64_t center = spec.attrs.GetInt("center_point_box", 0);
  if (center != 0 && center != 1) return Bad(spec, "center_point_box must be 0 or 1, got " + std::to_string(center));
  p.center = center == 1;
  auto scalar = [&](size_t i, const char* what, std::initializer_list<DataType> types, bool& has) -> Status {
    if (!HasInput(spec, i)) return Status::Ok();
    GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[i], what, types));
    if (spec.inputs[i].NumElements() > 1)
      return Bad(spec, std::string(what) + " must hold one value, got " + DimsStr(spec.inputs[i].dims));
    has = spec.inputs[i].NumElements() == 1;
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(scalar(2, "max_output_boxes_per_class", {D::kInt64, D::kInt32}, p.has_max));
  GE_RETURN_IF_ERROR(scalar(3, "iou_threshold", {D::kFloat32}, p.has_iou));
  GE_RETURN_IF_ERROR(scalar(4, "score_threshold", {D::kFloat32}, p.has_score));
  if (p.has_max) p.max_type = spec.inputs[2].dtype;
  if (spec.outputs[0].dtype != D::kInt64) return Bad(spec, "output must be int64");
  GE_RETURN_IF_ERROR(CheckComputedDims(spec, 0, {-1, 3}));
  return p;
}

// The reference's max_min: with a NaN the pair stays in its order.
void MinMax(float a, float b, float& lo, float& hi) {
  if (a >= b) {
    lo = b;
    hi = a;
  } else {
    lo = a;
    hi = b;
  }
}

struct Corners {
  float x_min, x_max, y_min, y_max;
};

Corners CornersOf(const float* b, bool center) {
  Corners c{};
  if (!center) {  // [y1, x1, y2, x2], any diagonal pair
    MinMax(b[1], b[3], c.x_min, c.x_max);
    MinMax(b[0], b[2], c.y_min, c.y_max);
  } else {  // [x_center, y_center, width, height]
    const float half_w = b[2] / 2, half_h = b[3] / 2;
    c = {b[0] - half_w, b[0] + half_w, b[1] - half_h, b[1] + half_h};
  }
  return c;
}

// `a` (the candidate) goes when its IoU with `b` (kept) exceeds the threshold.
bool Suppresses(const Corners& a, const Corners& b, float iou_threshold) {
  const float ix_min = std::max(a.x_min, b.x_min), ix_max = std::min(a.x_max, b.x_max);
  if (ix_max <= ix_min) return false;
  const float iy_min = std::max(a.y_min, b.y_min), iy_max = std::min(a.y_max, b.y_max);
  if (iy_max <= iy_min) return false;
  const float inter = (ix_max - ix_min) * (iy_max - iy_min);
  if (inter <= 0) return false;
  const float area_a = (a.x_max - a.x_min) * (a.y_max - a.y_min);
  const float area_b = (b.x_max - b.x_min) * (b.y_max - b.y_min);
  const float uni = area_a + area_b - inter;
  if (area_a <= 0 || area_b <= 0 || uni <= 0) return false;
  return inter / uni > iou_threshold;
}

Result<Selection> Select(const NmsPlan& p, const void* const* in) {
  const float* boxes = static_cast<const float*>(in[0]);
  const float* scores = static_cast<const float*>(in[1]);
  const int64_t max_out = p.has_max ? std::max<int64_t>(ReadInts(in[2], p.max_type, 1)[0], 0) : 0;
  const float iou = p.has_iou ? *static_cast<const float*>(in[3]) : 0.f;
  const float score_min = p.has_score ? *static_cast<const float*>(in[4]) : 0.f;
  Selection s;
  std::vector<Corners> corners(static_cast<size_t>(p.boxes));
  std::vector<int64_t> order, kept;
  for (int64_t b = 0; b < p.batches && max_out > 0; ++b) {
    for (int64_t i = 0; i < p.boxes; ++i) corners[static_cast<size_t>(i)] = CornersOf(boxes + (b * p.boxes + i) * 4, p.center);
    for (int64_t c = 0; c < p.classes; ++c) {
      const float* sc = scores + (b * p.classes + c) * p.boxes;
      order.clear();
      for (int64_t i = 0; i < p.boxes; ++i)
        if (!p.has_score || sc[i] > score_min) order.push_back(i);
      // Best first, the lower index on ties; NaN scores last (a strict weak order for std::sort).
      std::sort(order.begin(), order.end(), [sc](int64_t x, int64_t y) {
        const bool nx = std::isnan(sc[x]), ny = std::isnan(sc[y]);
        if (nx != ny) return ny;
        if (!nx && sc[x] != sc[y]) return sc[x] > sc[y];
        return x < y;
      });
      kept.clear();
      for (int64_t i : order) {
        if (static_cast<int64_t>(kept.size()) >= max_out) break;
        bool keep = true;
        for (int64_t k : kept)
          if (Suppresses(corners[static_cast<size_t>(i)], corners[static_cast<size_t>(k)], iou)) {
            keep = false;
            break;
          }
        if (!keep) continue;
        kept.push_back(i);
        s.rows.insert(s.rows.end(), {b, c, i});
      }
    }
  }
  s.dims = {{static_cast<int64_t>(s.rows.size() / 3), 3}};
  return s;
}

Result<KernelPtr> CreateNms(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(NmsPlan p, PlanNms(spec));
  return MakeComputedKernel<Selection>(
      spec, [p](const void* const* in) { return Select(p, in); },
      [](const Selection& s, const void* const*, void* const* out) {
        std::copy(s.rows.begin(), s.rows.end(), static_cast<int64_t*>(out[0]));
      });
}

}  // namespace

void RegisterNmsKernels(KernelRegistry& r) {
  r.Register("NonMaxSuppression", [](const KernelSpec& s) { return PlanNms(s).status(); }, CreateNms);
}

}  // namespace ge::hal
