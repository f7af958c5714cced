// Detection ops:
//   NonMaxSuppression (V1 to V5) → the IR's NonMaxSuppression (ONNX's) over one batch
//       and class: boxes [N, 4] → [1, N, 4], scores [N] → [1, 1, N]; its
//       (batch, class, box) rows → column 2, Cast to int32. The selection rule is
//       TF's: scores above score_threshold (V1, V2: all), best first and the lower
//       index on ties, a box dropped when its IoU with a kept one exceeds
//       iou_threshold, corners in either order.
//       V4, V5: valid_outputs; pad_to_max_output_size pads with zeros to
//       max_output_size. V5: selected_scores = scores at the selected indices;
//       soft_nms_sigma must be a constant 0 (soft NMS is refused).
//   CropAndResize → CropAndResize (ge's, TF's semantics on NCHW; the image is taken
//       NCHW and the crops stay NCHW-held); constant crop_size; bilinear or nearest
#include <cmath>

#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

// A float32 scalar data input; constant ones are checked against [lo, hi].
Result<Endpoint> FloatScalar(const tf::NodeDef& n, TfGraphBuilder& b, int input, const std::string& what, double lo,
                             double hi) {
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, input));
  GE_ASSIGN_OR_RETURN(Endpoint e, b.Logical(v));
  if (b.Desc(e).dtype != DataType::kFloat32)
    return NodeUnsupported(n, what + " of " + DataTypeName(b.Desc(e).dtype) + " is not supported (float32)");
  if (const Tensor* c = b.ConstValue(v))
    for (double x : c->ToDouble())
      if (!(x >= lo && x <= hi)) return NodeError(n, what + " " + std::to_string(x) + " is out of range");
  return e;
}

// v [M] padded with zeros to `len` (an int64 [1]) entries; `known`: len's
// value when constant, which the result's shape then says.
Result<Endpoint> PadTo(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint v, Endpoint len, int64_t known,
                       const std::string& suffix) {
  GE_ASSIGN_OR_RETURN(Endpoint zeros, Filled(n, b, len, b.Desc(v).dtype, Fill::kZero, suffix + "_zeros"));
  GE_ASSIGN_OR_RETURN(Node* cat, b.Add(n, "Concat", {v, zeros}, {{"axis", int64_t{0}}}, suffix + "_padded"));
  GE_ASSIGN_OR_RETURN(Node* cut, b.Add(n, "Slice", {Endpoint{cat, 0}, b.AddInt64s(n, suffix + "_start", {0}), len},
                                       {}, known >= 0 ? suffix + "_cut" : suffix));
  if (known < 0) return Endpoint{cut, 0};
  GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, "Reshape", {Endpoint{cut, 0}, b.AddInt64s(n, suffix + "_shape", {known})}, {},
                                     suffix));
  return Endpoint{r, 0};
}

Status MapNms(const tf::NodeDef& n, TfGraphBuilder& b, int version) {
  const int arity = version == 1 ? 3 : version == 2 ? 4 : version == 5 ? 6 : 5;
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, arity));
  GE_ASSIGN_OR_RETURN(Endpoint boxes, b.Logical(in[0]));
  GE_ASSIGN_OR_RETURN(Endpoint scores, b.Logical(in[1]));
  for (Endpoint e : {boxes, scores})
    if (b.Desc(e).dtype != DataType::kFloat32)
      return NodeUnsupported(n, std::string("boxes and scores of ") + DataTypeName(b.Desc(e).dtype) +
                                    " are not supported (float32)");
  if (!b.Desc(boxes).unknown_rank() && b.Desc(boxes).rank() != 2)
    return NodeError(n, "boxes must be [num_boxes, 4], but are " + b.Desc(boxes).ToString());
  if (!b.Desc(scores).unknown_rank() && b.Desc(scores).rank() != 1)
    return NodeError(n, "scores must be [num_boxes], but are " + b.Desc(scores).ToString());
  const bool padded_form = version >= 4;
  GE_ASSIGN_OR_RETURN(bool pad, AttrBool(n, "pad_to_max_output_size", false));
  if (!padded_form) pad = false;
  if (version == 5) {
    GE_ASSIGN_OR_RETURN(TfValue sigma, b.Input(n, 5));
    const Tensor* s = b.ConstValue(sigma);
    if (!s || s->ToDouble().size() != 1 || s->ToDouble()[0] != 0)
      return NodeUnsupported(n, "soft_nms_sigma (input 5) must be a constant 0: soft NMS is not supported");
  }
  GE_ASSIGN_OR_RETURN(Endpoint max_len, Int64Input(n, b, 2, "max_output_size"));
  int64_t known_max = -1;
  if (const Tensor* c = b.ConstValue(in[2])) {
    if (c->desc().NumElements() != 1) return NodeError(n, "max_output_size must hold one value");
    known_max = c->ToInt64()[0];
    if (known_max < 0) return NodeError(n, "max_output_size must not be negative");
  }
  Endpoint iou;
  if (version == 1) {
    GE_ASSIGN_OR_RETURN(float t, AttrFloat(n, "iou_threshold", 0.5f));
    if (!(t >= 0 && t <= 1)) return NodeError(n, "iou_threshold must be in [0, 1]");
    GE_ASSIGN_OR_RETURN(iou, AddScalar(n, b, "iou_threshold", DataType::kFloat32, t));
  } else {
    GE_ASSIGN_OR_RETURN(iou, FloatScalar(n, b, 3, "iou_threshold", 0, 1));
  }
  std::vector<Endpoint> nms_in;
  GE_ASSIGN_OR_RETURN(Node* boxes3, b.Add(n, "Unsqueeze", {boxes, b.AddInt64s(n, "batch_axis", {0})}, {}, "boxes"));
  GE_ASSIGN_OR_RETURN(Node* scores3, b.Add(n, "Unsqueeze", {scores, b.AddInt64s(n, "batch_class_axes", {0, 1})}, {},
                                           "scores"));
  nms_in = {Endpoint{boxes3, 0}, Endpoint{scores3, 0}, max_len, iou};
  if (version >= 3) {
    GE_ASSIGN_OR_RETURN(Endpoint score_min, FloatScalar(n, b, 4, "score_threshold", -HUGE_VAL, HUGE_VAL));
    nms_in.push_back(score_min);
  }
  GE_ASSIGN_OR_RETURN(Node* nms, b.Add(n, "NonMaxSuppression", nms_in, {}, "select"));
  GE_ASSIGN_OR_RETURN(Node* col, b.Add(n, "Gather", {Endpoint{nms, 0}, b.AddInt64s(n, "box_column", {2}, true)},
                                       {{"axis", int64_t{1}}}, "box_index"));
  const Endpoint picked{col, 0};
  GE_ASSIGN_OR_RETURN(Endpoint idx, CastTo(n, b, picked, DataType::kInt32, pad ? "indices" : ""));
  if (pad) {
    GE_ASSIGN_OR_RETURN(idx, PadTo(n, b, idx, max_len, known_max, ""));
  }
  b.Define(n, 0, TfValue{idx, false});
  if (!padded_form) return Status::Ok();
  int valid_output = 1;
  if (version == 5) {
    GE_ASSIGN_OR_RETURN(Node* s, b.Add(n, "Gather", {scores, picked}, {{"axis", int64_t{0}}},
                                       pad ? "scores_selected" : "selected_scores"));
    Endpoint sel{s, 0};
    if (pad) {
      GE_ASSIGN_OR_RETURN(sel, PadTo(n, b, sel, max_len, known_max, "selected_scores"));
    }
    b.Define(n, 1, TfValue{sel, false});
    valid_output = 2;
  }
  GE_ASSIGN_OR_RETURN(Node* count, b.Add(n, "Size", {picked}, {}, "valid_count"));
  GE_ASSIGN_OR_RETURN(Endpoint valid, CastTo(n, b, Endpoint{count, 0}, DataType::kInt32, "valid_outputs"));
  b.Define(n, valid_output, TfValue{valid, false});
  return Status::Ok();
}

Status MapCropAndResize(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::string method, AttrString(n, "method", std::string("bilinear")));
  if (method != "bilinear" && method != "nearest")
    return NodeUnsupported(n, "method '" + method + "' is not supported (bilinear, nearest)");
  GE_ASSIGN_OR_RETURN(float extrapolation, AttrFloat(n, "extrapolation_value", 0.0f));
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 4));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> size, ConstInts(n, b, 3, "crop_size"));
  if (size.size() != 2 || size[0] < 1 || size[1] < 1) return NodeError(n, "crop_size must be two positive values");
  if (b.LogicalRank(in[0]) != 4) return NodeError(n, "image must be 4-D NHWC, but is " + b.Desc(in[0].ep).ToString());
  GE_ASSIGN_OR_RETURN(Endpoint image, b.Nchw(in[0]));
  GE_ASSIGN_OR_RETURN(Endpoint boxes, b.Logical(in[1]));
  GE_ASSIGN_OR_RETURN(Endpoint box_ind, b.Logical(in[2]));
  GE_ASSIGN_OR_RETURN(image, CastTo(n, b, image, DataType::kFloat32, "image_float"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "CropAndResize", {image, boxes, box_ind},
                                     {{"crop_height", size[0]},
                                      {"crop_width", size[1]},
                                      {"method", method},
                                      {"extrapolation_value", extrapolation}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, true});
  return Status::Ok();
}

}  // namespace

void AddDetectionMappers(OpMapperTable& t) {
  const std::pair<const char*, int> nms[] = {{"NonMaxSuppression", 1},
                                             {"NonMaxSuppressionV2", 2},
                                             {"NonMaxSuppressionV3", 3},
                                             {"NonMaxSuppressionV4", 4},
                                             {"NonMaxSuppressionV5", 5}};
  for (const auto& [op, version] : nms)
    t[op] = [version = version](const tf::NodeDef& n, TfGraphBuilder& b) { return MapNms(n, b, version); };
  t["CropAndResize"] = MapCropAndResize;
}

}  // namespace ge::tf_parser
