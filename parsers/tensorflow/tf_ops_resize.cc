// Image resizing, on NCHW (the result stays NCHW-held); the size input must
// be a constant. TF's ResizeBilinear, ResizeNearestNeighbor and
// ResizeBicubic become the IR's Resize (ONNX semantics) with the coordinate
// rule TF computes:
//   align_corners       → align_corners (nearest: round half up, TF's roundf)
//   half_pixel_centers  → bilinear, bicubic: half_pixel; nearest: tf_half_pixel_for_nn, floor
//   neither             → asymmetric (nearest: floor)
// ResizeBicubic: with half_pixel_centers TF uses Keys' cubic (a = -0.5) and
// drops the taps outside the image, renormalising the rest
// (exclude_outside=1); without it a = -0.75 and the edge pixel repeats. Its
// coefficients come from a 1024-entry table, which _cubic_table_size=1024
// reproduces.
// ResizeArea: each output pixel averages the input area it covers, which is
// separable: Y = Ah · X · Awᵀ with constant coverage matrices, two MatMuls
// (the matrices computed here in float, as TF's kernel computes its weights).
#include <cmath>

#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

enum class Method { kBilinear, kNearest, kBicubic };

// The NCHW image and the constant output size of a resize node.
struct ResizeOperands {
  Endpoint x;
  int64_t out_h = 0, out_w = 0;
};

Result<ResizeOperands> Operands(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> size, ConstInts(n, b, 1, "size"));
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0) return NodeError(n, "size must be two positive values");
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  if (b.LogicalRank(x) != 4) return NodeError(n, "images must be 4-D NHWC, but is " + b.Desc(x.ep).ToString());
  GE_ASSIGN_OR_RETURN(Endpoint in, b.Nchw(x));
  return ResizeOperands{in, size[0], size[1]};
}

Status MapResize(const tf::NodeDef& n, TfGraphBuilder& b, Method method) {
  GE_ASSIGN_OR_RETURN(bool align, AttrBool(n, "align_corners", false));
  GE_ASSIGN_OR_RETURN(bool half, AttrBool(n, "half_pixel_centers", false));
  if (align && half) return NodeError(n, "align_corners and half_pixel_centers cannot both be set (TF refuses it)");
  GE_ASSIGN_OR_RETURN(ResizeOperands op, Operands(n, b));
  const std::vector<int64_t>& d = b.Desc(op.x).dims;
  if (d[0] < 0 || d[1] < 0) return NodeUnsupported(n, "images need a known batch and channel count (see --input_shape)");
  const bool nearest = method == Method::kNearest;
  std::map<std::string, AttrValue> attrs = {
      {"mode", std::string(nearest ? "nearest" : method == Method::kBilinear ? "linear" : "cubic")},
      {"coordinate_transformation_mode",
       std::string(align ? "align_corners" : !half ? "asymmetric" : nearest ? "tf_half_pixel_for_nn" : "half_pixel")},
      {"nearest_mode", std::string(align ? "round_prefer_ceil" : "floor")}};
  if (method == Method::kBicubic) {
    attrs["cubic_coeff_a"] = half ? -0.5f : -0.75f;
    attrs["exclude_outside"] = int64_t{half};
    attrs["_cubic_table_size"] = int64_t{1024};
  }
  Endpoint sizes = b.AddInt64s(n, "sizes", {d[0], d[1], op.out_h, op.out_w});
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Resize", {op.x, Endpoint{}, Endpoint{}, sizes}, std::move(attrs)));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, true});
  return Status::Ok();
}

// TF's area weights of one axis: out x in, row o covering input
// [o * scale, (o + 1) * scale) (indices past the end read the last one).
std::vector<float> AreaWeights(int64_t in, int64_t out, bool align, float* scale_out) {
  const float scale = align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                       : static_cast<float>(in) / static_cast<float>(out);
  *scale_out = scale;
  std::vector<float> w(static_cast<size_t>(out * in), 0.f);
  for (int64_t o = 0; o < out; ++o) {
    const float lo = static_cast<float>(o) * scale, hi = static_cast<float>(o + 1) * scale;
    const int64_t start = static_cast<int64_t>(std::floor(lo)), end = static_cast<int64_t>(std::ceil(hi));
    for (int64_t i = start; i < end; ++i) {
      const float fi = static_cast<float>(i);
      const float part = fi < lo ? (fi + 1 > hi ? scale : fi + 1 - lo) : (fi + 1 > hi ? hi - fi : 1.0f);
      const int64_t at = std::min(std::max<int64_t>(i, 0), in - 1);
      w[static_cast<size_t>(o * in + at)] += part;
    }
  }
  return w;
}

Status MapResizeArea(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool align, AttrBool(n, "align_corners", false));
  GE_ASSIGN_OR_RETURN(ResizeOperands op, Operands(n, b));
  const std::vector<int64_t>& d = b.Desc(op.x).dims;
  const int64_t h = d[2], w = d[3];
  if (h < 1 || w < 1) return NodeUnsupported(n, "images need known, non-empty height and width");
  GE_ASSIGN_OR_RETURN(Endpoint x, CastTo(n, b, op.x, DataType::kFloat32, "float"));
  float sh = 0, sw = 0;
  std::vector<float> wy = AreaWeights(h, op.out_h, align, &sh);
  std::vector<float> wx = AreaWeights(w, op.out_w, align, &sw);
  // TF multiplies each sum by 1 / (height_scale * width_scale); it goes into Ah.
  const float norm = static_cast<float>(1.0 / (static_cast<double>(sh) * static_cast<double>(sw)));
  for (float& v : wy) v *= norm;
  std::vector<float> wxt(wx.size());
  for (int64_t o = 0; o < op.out_w; ++o)
    for (int64_t i = 0; i < w; ++i) wxt[static_cast<size_t>(i * op.out_w + o)] = wx[static_cast<size_t>(o * w + i)];
  Endpoint awt = b.AddConst(n, "width_weights", Tensor::FromVector(DataType::kFloat32, {w, op.out_w}, wxt));
  Endpoint ah = b.AddConst(n, "height_weights", Tensor::FromVector(DataType::kFloat32, {op.out_h, h}, wy));
  GE_ASSIGN_OR_RETURN(Node* rows, b.Add(n, "MatMul", {x, awt}, {}, "width"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "MatMul", {ah, Endpoint{rows, 0}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, true});
  return Status::Ok();
}

}  // namespace

void AddResizeMappers(OpMapperTable& t) {
  t["ResizeBilinear"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapResize(n, b, Method::kBilinear); };
  t["ResizeNearestNeighbor"] = [](const tf::NodeDef& n, TfGraphBuilder& b) {
    return MapResize(n, b, Method::kNearest);
  };
  t["ResizeBicubic"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapResize(n, b, Method::kBicubic); };
  t["ResizeArea"] = MapResizeArea;
}

}  // namespace ge::tf_parser
