// prepare: insert_aipp. For every aipp_op of --insert_op_conf, the model
// input it names (related_input_rank, in input order) becomes the raw uint8
// image and an Aipp node between it and the input's consumers makes what
// the model was trained on (ATC's InsertAippPass; docs/aipp.md). The
// geometry is settled here, against the input's shape: the crop and the
// padding must add up to the model's H and W, and the channels must match.
// Runs first, so inference, support checks and every later pass see the
// Aipp node like any other.
#include "ge/aipp_config.h"
#include "ge/ops/aipp_format.h"
#include "pass.h"

namespace ge {
namespace {

struct Geometry {
  int64_t n = 0, c = 0, h = 0, w = 0;  // the model's input, logical
  int64_t src_h = 0, src_w = 0;
  std::vector<int64_t> crop, pads;
};

Result<Geometry> Settle(const AippConfig& a, const AippFormat& f, const TensorDesc& in, bool nhwc,
                        const std::string& input) {
  const std::string where = a.where + ": input '" + input + "' " + in.ToString();
  if (in.dtype != DataType::kFloat32 || !in.is_static() || in.rank() != 4)
    return InvalidArgument(where + " must be a static float32 image of rank 4 for AIPP");
  Geometry g;
  g.n = in.dims[0];
  g.c = nhwc ? in.dims[3] : in.dims[1];
  g.h = nhwc ? in.dims[1] : in.dims[2];
  g.w = nhwc ? in.dims[2] : in.dims[3];
  const int64_t want_c = f.out_channels;
  if (g.c != want_c)
    return InvalidArgument(where + " has " + std::to_string(g.c) + " channels; " + a.input_format + " gives " +
                           std::to_string(want_c) + (nhwc ? " (layout NHWC)" : " (layout NCHW)"));
  const int64_t top = a.padding ? a.top_padding_size : 0, bottom = a.padding ? a.bottom_padding_size : 0;
  const int64_t left = a.padding ? a.left_padding_size : 0, right = a.padding ? a.right_padding_size : 0;
  if (top + bottom >= g.h || left + right >= g.w)
    return InvalidArgument(where + ": padding " + std::to_string(top) + "+" + std::to_string(bottom) + " x " +
                           std::to_string(left) + "+" + std::to_string(right) + " leaves no image");
  int64_t crop_h = g.h - top - bottom, crop_w = g.w - left - right, y0 = 0, x0 = 0;
  if (a.crop) {
    y0 = a.load_start_pos_h, x0 = a.load_start_pos_w;
    if (a.crop_size_h) crop_h = a.crop_size_h;
    if (a.crop_size_w) crop_w = a.crop_size_w;
  }
  if (crop_h + top + bottom != g.h || crop_w + left + right != g.w)
    return InvalidArgument(where + ": crop " + std::to_string(crop_h) + " x " + std::to_string(crop_w) +
                           " plus padding gives " + std::to_string(crop_h + top + bottom) + " x " +
                           std::to_string(crop_w + left + right) + ", not the input's " + std::to_string(g.h) + " x " +
                           std::to_string(g.w) + " (resize is not supported)");
  g.src_h = a.src_image_size_h ? a.src_image_size_h : (a.crop ? y0 + crop_h : crop_h);
  g.src_w = a.src_image_size_w ? a.src_image_size_w : (a.crop ? x0 + crop_w : crop_w);
  if (y0 + crop_h > g.src_h || x0 + crop_w > g.src_w)
    return InvalidArgument(where + ": the crop from (" + std::to_string(y0) + ", " + std::to_string(x0) + ") of " +
                           std::to_string(crop_h) + " x " + std::to_string(crop_w) + " leaves the " +
                           std::to_string(g.src_h) + " x " + std::to_string(g.src_w) + " source image");
  if (f.yuv420sp && (g.src_h % 2 || g.src_w % 2 || y0 % 2 || x0 % 2))
    return InvalidArgument(where + ": YUV420SP_U8 needs an even image size and crop start (src " +
                           std::to_string(g.src_h) + " x " + std::to_string(g.src_w) + ", start " +
                           std::to_string(y0) + ", " + std::to_string(x0) + ")");
  g.crop = {y0, x0, crop_h, crop_w};
  g.pads = {top, bottom, left, right};
  return g;
}

TensorDesc RawImage(const AippFormat& f, const Geometry& g) {
  if (f.yuv420sp) return TensorDesc(DataType::kUInt8, {g.n, g.src_h * 3 / 2, g.src_w, 1});
  return TensorDesc(DataType::kUInt8, {g.n, g.src_h, g.src_w, f.in_channels});
}

Status Insert(Graph& graph, const AippConfig& a, bool nhwc) {
  const std::vector<Node*> inputs = graph.InputNodes();
  if (a.related_input_rank >= static_cast<int64_t>(inputs.size()))
    return InvalidArgument(a.where + ": related_input_rank " + std::to_string(a.related_input_rank) +
                           " but the model has " + std::to_string(inputs.size()) + " input(s)");
  Node* data = inputs[a.related_input_rank];
  const AippFormat* f = FindAippFormat(a.input_format);
  if (!f) return InvalidArgument(a.where + ": input_format " + a.input_format + " is not supported");
  GE_ASSIGN_OR_RETURN(Geometry g, Settle(a, *f, data->output_desc(0), nhwc, data->name()));
  Node* aipp = graph.AddNode("Aipp", graph.MakeUniqueName(data->name() + "_aipp"), 1, 1);
  aipp->SetAttr("input_format", a.input_format);
  aipp->SetAttr("layout", std::string(nhwc ? "NHWC" : "NCHW"));
  aipp->SetAttr("crop", g.crop);
  aipp->SetAttr("pads", g.pads);
  aipp->SetAttr("padding_value", a.padding_value);
  aipp->SetAttr("csc_switch", a.csc_switch);
  aipp->SetAttr("rbuv_swap_switch", a.rbuv_swap_switch);
  aipp->SetAttr("ax_swap_switch", a.ax_swap_switch);
  aipp->SetAttr("matrix", std::vector<int64_t>(a.matrix.begin(), a.matrix.end()));
  aipp->SetAttr("input_bias", std::vector<int64_t>(a.input_bias.begin(), a.input_bias.end()));
  aipp->SetAttr("output_bias", std::vector<int64_t>(a.output_bias.begin(), a.output_bias.end()));
  aipp->SetAttr("mean_chn", std::vector<int64_t>(a.mean_chn.begin(), a.mean_chn.end()));
  aipp->SetAttr("min_chn", std::vector<float>(a.min_chn.begin(), a.min_chn.end()));
  aipp->SetAttr("var_reci_chn", std::vector<float>(a.var_reci_chn.begin(), a.var_reci_chn.end()));
  aipp->output_desc(0) = data->output_desc(0);
  GE_RETURN_IF_ERROR(graph.ReplaceAllUses({data, 0}, {aipp, 0}));
  data->output_desc(0) = RawImage(*f, g);
  data->SetAttr("_aipp", a.input_format);  // shown by --mode 1 and ge-dump
  return graph.AddEdge(data, 0, aipp, 0);
}

Status RunInsertAipp(Graph& g, const PassContext& ctx) {
  if (!ctx.options) return Status::Ok();
  for (const AippConfig& a : ctx.options->aipp) GE_RETURN_IF_ERROR(Insert(g, a, ctx.options->aipp_nhwc));
  return Status::Ok();
}

}  // namespace

Pass InsertAippPass() { return Pass{"insert_aipp", "prepare", RunInsertAipp}; }

}  // namespace ge
