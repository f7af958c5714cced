// Image resizing: TF's ResizeBilinear and ResizeNearestNeighbor as the IR's
// Resize (ONNX semantics) on NCHW, with the coordinate rule TF computes:
//   align_corners       → align_corners (nearest: round half up, TF's roundf)
//   half_pixel_centers  → bilinear: half_pixel; nearest: tf_half_pixel_for_nn, floor
//   neither             → asymmetric (nearest: floor)
// The size input must be a constant; the result stays NCHW-held.
#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

Status MapResize(const tf::NodeDef& n, TfGraphBuilder& b, bool bilinear) {
  GE_ASSIGN_OR_RETURN(bool align, AttrBool(n, "align_corners", false));
  GE_ASSIGN_OR_RETURN(bool half, AttrBool(n, "half_pixel_centers", false));
  if (align && half) return NodeError(n, "align_corners and half_pixel_centers cannot both be set (TF refuses it)");
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> size, ConstInts(n, b, 1, "size"));
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0) return NodeError(n, "size must be two positive values");
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  if (b.LogicalRank(x) != 4) return NodeError(n, "images must be 4-D NHWC, but is " + b.Desc(x.ep).ToString());
  GE_ASSIGN_OR_RETURN(Endpoint in, b.Nchw(x));
  const std::vector<int64_t>& d = b.Desc(in).dims;
  if (d[0] < 0 || d[1] < 0) return NodeUnsupported(n, "images need a known batch and channel count (see --input_shape)");
  std::map<std::string, AttrValue> attrs = {
      {"mode", std::string(bilinear ? "linear" : "nearest")},
      {"coordinate_transformation_mode",
       std::string(align ? "align_corners" : !half ? "asymmetric" : bilinear ? "half_pixel" : "tf_half_pixel_for_nn")},
      {"nearest_mode", std::string(align ? "round_prefer_ceil" : "floor")}};
  Endpoint sizes = b.AddInt64s(n, "sizes", {d[0], d[1], size[0], size[1]});
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Resize", {in, Endpoint{}, Endpoint{}, sizes}, std::move(attrs)));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, true});
  return Status::Ok();
}

}  // namespace

void AddResizeMappers(OpMapperTable& t) {
  t["ResizeBilinear"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapResize(n, b, true); };
  t["ResizeNearestNeighbor"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapResize(n, b, false); };
}

}  // namespace ge::tf_parser
