// The layout-sensitive NN ops. With data_format NHWC their data input is
// taken as NCHW (one Transpose where the producer is not NCHW-held already)
// and their result stays NCHW-held; with NCHW they work in TF's own layout.
//   Conv2D                → Conv (filter HWIO → OIHW; group = C_in / filter C_in)
//   DepthwiseConv2dNative → Conv, group = C (filter [kh,kw,C,M] → [C*M,1,kh,kw])
//   BiasAdd(V1)           → Add (bias broadcast along the channel axis)
//   FusedBatchNorm(V2,V3) → BatchNormalization (inference: is_training=false)
//   MaxPool, AvgPool      → MaxPool, AveragePool (count_include_pad=0, TF's average)
//   Conv2DBackpropInput   → ConvTranspose (filter HWIO → [out_backprop C, C, kh, kw]; the
//                           constant input_sizes fixed by pads + output_padding)
//   LRN                   → LRN over the channels (size = 2 * depth_radius + 1,
//                           alpha = TF's alpha * size: ONNX divides by size)
#include <algorithm>
#include <variant>

#include "tf_attrs.h"
#include "tf_conv_window.h"
#include "tf_layout.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

Result<Endpoint> ReorderedFilter(const tf::NodeDef& n, TfGraphBuilder& b, const std::vector<int64_t>& perm,
                                 const std::vector<int64_t>& final_dims) {
  GE_ASSIGN_OR_RETURN(TfValue f, b.Input(n, 1));
  if (const Tensor* c = b.ConstValue(f)) {
    Tensor t = TransposeTensor(*c, perm);
    return b.AddConst(n, "filter", Tensor(TensorDesc(t.desc().dtype, final_dims), t.data(), t.size()));
  }
  GE_ASSIGN_OR_RETURN(Endpoint fl, b.Logical(f));
  GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Transpose", {fl}, {{"perm", perm}}, "filter"));
  if (PermuteDims(b.Desc(fl).dims, perm) == final_dims) return Endpoint{t, 0};
  for (int64_t d : final_dims)
    if (d < 0) return NodeUnsupported(n, "a computed filter must have a known shape");
  Endpoint shape = b.AddInt64s(n, "filter_shape", final_dims);
  GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, "Reshape", {Endpoint{t, 0}, shape}, {}, "filter_reshape"));
  return Endpoint{r, 0};
}

namespace {

std::pair<int64_t, int64_t> SpatialDims(TfGraphBuilder& b, Endpoint nchw) {
  const auto& d = b.Desc(nchw).dims;
  return {d[2], d[3]};
}

Result<std::vector<int64_t>> FilterDims(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue f, b.Input(n, 1));
  std::vector<int64_t> d = b.LogicalDims(f);
  if (d.size() != 4) return NodeError(n, "filter must be 4-D [kh, kw, in, out], but is " + b.Desc(f.ep).ToString());
  for (int64_t x : d)
    if (x < 0) return NodeUnsupported(n, "filter " + b.Desc(f.ep).ToString() + " must have a known shape");
  return d;
}

Status MapConv(const tf::NodeDef& n, TfGraphBuilder& b, bool depthwise) {
  GE_ASSIGN_OR_RETURN(bool nhwc, IsNhwc(n));
  GE_ASSIGN_OR_RETURN(Endpoint x, WindowInput(n, b, nhwc));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> fd, FilterDims(n, b));  // kh, kw, in, out (or multiplier)
  const int64_t channels = b.Desc(x).dims[1];
  int64_t group = 1;
  Endpoint w;
  if (depthwise) {
    if (channels >= 0 && channels != fd[2])
      return NodeError(n, "input has " + std::to_string(channels) + " channels, the filter " + std::to_string(fd[2]));
    group = fd[2];
    GE_ASSIGN_OR_RETURN(w, ReorderedFilter(n, b, {2, 3, 0, 1}, {fd[2] * fd[3], 1, fd[0], fd[1]}));
  } else {
    if (channels >= 0) {
      if (fd[2] <= 0 || channels % fd[2] != 0)
        return NodeError(n, "input has " + std::to_string(channels) + " channels, which the filter's " +
                                std::to_string(fd[2]) + " input channels do not divide");
      group = channels / fd[2];
    }
    GE_ASSIGN_OR_RETURN(w, ReorderedFilter(n, b, {3, 2, 0, 1}, {fd[3], fd[2], fd[0], fd[1]}));
  }
  GE_ASSIGN_OR_RETURN(auto stride, SpatialPair(n, "strides", nhwc));
  GE_ASSIGN_OR_RETURN(auto dilation, SpatialPair(n, "dilations", nhwc, std::vector<int64_t>{1, 1, 1, 1}));
  GE_ASSIGN_OR_RETURN(auto attrs, PaddingAttrs(n, nhwc, SpatialDims(b, x), {fd[0], fd[1]}, stride, dilation));
  attrs["kernel_shape"] = std::vector<int64_t>{fd[0], fd[1]};
  attrs["strides"] = std::vector<int64_t>{stride.first, stride.second};
  attrs["dilations"] = std::vector<int64_t>{dilation.first, dilation.second};
  attrs["group"] = group;
  GE_ASSIGN_OR_RETURN(Node* conv, b.Add(n, "Conv", {x, w}, std::move(attrs)));
  b.Define(n, 0, TfValue{Endpoint{conv, 0}, nhwc});
  return Status::Ok();
}

// TF's transposed convolution is the gradient of a Conv2D whose input has
// input_sizes: its pads are that forward conv's, and output_padding adds the
// rows the forward conv's floor division dropped.
Status MapConv2DBackpropInput(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool nhwc, IsNhwc(n));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ConstInts(n, b, 0, "input_sizes"));
  if (sizes.size() != 4) return NodeError(n, "input_sizes must have 4 values");
  const std::pair<int64_t, int64_t> out = nhwc ? std::pair{sizes[1], sizes[2]} : std::pair{sizes[2], sizes[3]};
  const int64_t out_c = nhwc ? sizes[3] : sizes[1];
  GE_ASSIGN_OR_RETURN(TfValue dy, b.Input(n, 2));
  if (b.LogicalRank(dy) != 4) return NodeError(n, "out_backprop must be 4-D, but is " + b.Desc(dy.ep).ToString());
  GE_ASSIGN_OR_RETURN(Endpoint x, nhwc ? b.Nchw(dy) : b.Logical(dy));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> fd, FilterDims(n, b));  // kh, kw, out channels, in channels
  const auto [in_h, in_w] = SpatialDims(b, x);
  if (fd[2] != out_c || (b.Desc(x).dims[1] >= 0 && b.Desc(x).dims[1] != fd[3]))
    return NodeError(n, "filter [" + std::to_string(fd[0]) + "," + std::to_string(fd[1]) + "," + std::to_string(fd[2]) +
                            "," + std::to_string(fd[3]) + "] does not match input_sizes and out_backprop");
  if (in_h < 0 || in_w < 0) return NodeUnsupported(n, "out_backprop needs known spatial dims");
  GE_ASSIGN_OR_RETURN(Endpoint w, ReorderedFilter(n, b, {3, 2, 0, 1}, {fd[3], fd[2], fd[0], fd[1]}));
  GE_ASSIGN_OR_RETURN(auto stride, SpatialPair(n, "strides", nhwc));
  GE_ASSIGN_OR_RETURN(auto dilation, SpatialPair(n, "dilations", nhwc, std::vector<int64_t>{1, 1, 1, 1}));
  GE_ASSIGN_OR_RETURN(auto attrs, PaddingAttrs(n, nhwc, out, {fd[0], fd[1]}, stride, dilation));
  const auto* given = std::get_if<std::vector<int64_t>>(&attrs["pads"]);
  if (!given || given->size() != 4) return NodeError(n, "could not compute the padding");
  const std::vector<int64_t> pads = *given;
  std::vector<int64_t> extra;
  const int64_t ins[2] = {in_h, in_w}, outs[2] = {out.first, out.second}, k[2] = {fd[0], fd[1]};
  const int64_t s[2] = {stride.first, stride.second}, d[2] = {dilation.first, dilation.second};
  for (int i = 0; i < 2; ++i) {
    const int64_t natural = s[i] * (ins[i] - 1) + (k[i] - 1) * d[i] + 1 - pads[i] - pads[i + 2];
    extra.push_back(outs[i] - natural);
    if (extra.back() < 0 || extra.back() >= std::max(s[i], d[i]))
      return NodeError(n, "input_sizes do not fit out_backprop " + b.Desc(dy.ep).ToString() + " with these strides");
  }
  attrs["kernel_shape"] = std::vector<int64_t>{fd[0], fd[1]};
  attrs["strides"] = std::vector<int64_t>{s[0], s[1]};
  attrs["dilations"] = std::vector<int64_t>{d[0], d[1]};
  attrs["output_padding"] = extra;
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "ConvTranspose", {x, w}, std::move(attrs)));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, nhwc});
  return Status::Ok();
}

Status MapPool(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type) {
  GE_ASSIGN_OR_RETURN(bool nhwc, IsNhwc(n));
  GE_ASSIGN_OR_RETURN(Endpoint x, WindowInput(n, b, nhwc));
  GE_ASSIGN_OR_RETURN(auto kernel, SpatialPair(n, "ksize", nhwc));
  GE_ASSIGN_OR_RETURN(auto stride, SpatialPair(n, "strides", nhwc));
  GE_ASSIGN_OR_RETURN(auto attrs, PaddingAttrs(n, nhwc, SpatialDims(b, x), kernel, stride, {1, 1}));
  attrs["kernel_shape"] = std::vector<int64_t>{kernel.first, kernel.second};
  attrs["strides"] = std::vector<int64_t>{stride.first, stride.second};
  if (type == "AveragePool") attrs["count_include_pad"] = int64_t{0};
  GE_ASSIGN_OR_RETURN(Node* pool, b.Add(n, type, {x}, std::move(attrs)));
  b.Define(n, 0, TfValue{Endpoint{pool, 0}, nhwc});
  return Status::Ok();
}

Status MapBiasAdd(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool nhwc, IsNhwc(n));
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(TfValue bias, b.Input(n, 1));
  const int64_t rank = b.LogicalRank(x);
  if (b.LogicalRank(bias) != 1) return NodeError(n, "bias must be 1-D, but is " + b.Desc(bias.ep).ToString());
  if (rank >= 0 && rank < 2) return NodeError(n, "input must be at least 2-D, but is " + b.Desc(x.ep).ToString());
  Endpoint lhs, rhs;
  bool out_nchw = false;
  if (nhwc || rank == 2) {
    // The channel is the last logical axis: plain right-aligned broadcasting,
    // or its NCHW equivalent when x is NCHW-held.
    if (x.nchw && b.CanBroadcastNchw(bias)) {
      lhs = x.ep;
      GE_ASSIGN_OR_RETURN(rhs, b.BroadcastableNchw(n, bias));
      out_nchw = true;
    } else {
      GE_ASSIGN_OR_RETURN(lhs, b.Logical(x));
      GE_ASSIGN_OR_RETURN(rhs, b.Logical(bias));
    }
  } else {
    // NCHW: the channel is axis 1; the bias becomes [C, 1, ...].
    if (rank < 0) return NodeUnsupported(n, "NCHW BiasAdd needs an input of known rank");
    GE_ASSIGN_OR_RETURN(lhs, b.Logical(x));
    const std::vector<int64_t> bd = b.LogicalDims(bias);
    std::vector<int64_t> dims = {bd[0]};
    dims.resize(static_cast<size_t>(rank - 1), 1);
    if (const Tensor* c = b.ConstValue(bias)) {
      rhs = b.AddConst(n, "bias_c11", Tensor(TensorDesc(c->desc().dtype, dims), c->data(), c->size()));
    } else {
      if (bd[0] < 0) return NodeUnsupported(n, "a computed bias must have a known size");
      Endpoint shape = b.AddInt64s(n, "bias_shape", dims);
      GE_ASSIGN_OR_RETURN(Endpoint bl, b.Logical(bias));
      GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, "Reshape", {bl, shape}, {}, "bias_c11"));
      rhs = Endpoint{r, 0};
    }
  }
  GE_ASSIGN_OR_RETURN(Node* add, b.Add(n, "Add", {lhs, rhs}));
  b.Define(n, 0, TfValue{Endpoint{add, 0}, out_nchw});
  return Status::Ok();
}

Status MapFusedBatchNorm(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool training, AttrBool(n, "is_training", true));
  if (training)
    return NodeUnsupported(n, "is_training=true (batch statistics) is not supported; freeze the graph for inference");
  GE_ASSIGN_OR_RETURN(float epsilon, AttrFloat(n, "epsilon", 1e-4f));
  GE_ASSIGN_OR_RETURN(bool nhwc, IsNhwc(n));
  GE_ASSIGN_OR_RETURN(Endpoint x, WindowInput(n, b, nhwc));
  std::vector<Endpoint> ins = {x};
  std::vector<TfValue> stats;
  for (int i = 1; i <= 4; ++i) {
    GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, i));
    GE_ASSIGN_OR_RETURN(Endpoint e, b.Logical(v));
    ins.push_back(e);
    stats.push_back(v);
  }
  GE_ASSIGN_OR_RETURN(Node* bn, b.Add(n, "BatchNormalization", ins, {{"epsilon", epsilon}}));
  b.Define(n, 0, TfValue{Endpoint{bn, 0}, nhwc});
  // In inference TF returns the given statistics as batch_mean / batch_variance.
  b.Define(n, 1, stats[2]);
  b.Define(n, 2, stats[3]);
  return Status::Ok();
}

// TF's LRN sums the squares over depth_radius channels each side of the
// last (NHWC channel) axis: sqr_sum = sum(x[c - r .. c + r]^2),
// y = x / (bias + alpha * sqr_sum)^beta.
Status MapLrn(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(int64_t radius, AttrInt(n, "depth_radius", 5));
  GE_ASSIGN_OR_RETURN(float bias, AttrFloat(n, "bias", 1.0f));
  GE_ASSIGN_OR_RETURN(float alpha, AttrFloat(n, "alpha", 1.0f));
  GE_ASSIGN_OR_RETURN(float beta, AttrFloat(n, "beta", 0.5f));
  if (radius < 0 || radius > (int64_t{1} << 20)) return NodeError(n, "attribute 'depth_radius' is out of range");
  GE_ASSIGN_OR_RETURN(Endpoint x, WindowInput(n, b, /*nhwc=*/true));
  const int64_t size = 2 * radius + 1;
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "LRN", {x},
                                     {{"size", size},
                                      {"alpha", alpha * static_cast<float>(size)},
                                      {"beta", beta},
                                      {"bias", bias}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, true});
  return Status::Ok();
}

}  // namespace

void AddNnMappers(OpMapperTable& t) {
  t["Conv2D"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapConv(n, b, false); };
  t["DepthwiseConv2dNative"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapConv(n, b, true); };
  t["MaxPool"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapPool(n, b, "MaxPool"); };
  t["AvgPool"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapPool(n, b, "AveragePool"); };
  t["Conv2DBackpropInput"] = MapConv2DBackpropInput;
  t["BiasAdd"] = MapBiasAdd;
  t["BiasAddV1"] = MapBiasAdd;
  for (const char* op : {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"}) t[op] = MapFusedBatchNorm;
  t["LRN"] = MapLrn;
}

}  // namespace ge::tf_parser
