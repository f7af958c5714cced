// 3-D windows (video, volumes) on the IR's 3-D Conv, MaxPool and
// AveragePool, which take NCDHW. With data_format NDHWC (TF's default) the
// input gets a Transpose to NCDHW and the result one back; between two such
// ops the algebraic simplifier cancels the pair. NCDHW graphs get none.
//   Conv3D    → Conv (filter [kd,kh,kw,in,out] → [out,in,kd,kh,kw]; group = C / filter in)
//   MaxPool3D → MaxPool
//   AvgPool3D → AveragePool (count_include_pad=0: TF averages the in-bounds elements)
// padding SAME (TF's rule on each axis, the odd pad after) or VALID;
// strides, dilations and ksize must be 1 on the batch and channel dims.
#include <array>

#include "ge/ops/op_registry.h"
#include "tf_attrs.h"
#include "tf_conv_window.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

using Triple = std::array<int64_t, 3>;
const std::vector<int64_t> kNdhwcToNcdhw = {0, 4, 1, 2, 3};
const std::vector<int64_t> kNcdhwToNdhwc = {0, 2, 3, 4, 1};

Result<bool> IsNdhwc(const tf::NodeDef& n) {
  GE_ASSIGN_OR_RETURN(std::string f, AttrString(n, "data_format", std::string("NDHWC")));
  if (f == "NDHWC") return true;
  if (f == "NCDHW") return false;
  return NodeUnsupported(n, "data_format '" + f + "' is not supported (NDHWC or NCDHW)");
}

// {d, h, w} of a 5-element list attribute; batch and channel entries must be 1.
Result<Triple> Spatial3(const tf::NodeDef& n, const std::string& attr, bool ndhwc,
                        std::optional<std::vector<int64_t>> def = std::nullopt) {
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> v, AttrInts(n, attr, std::move(def)));
  if (v.size() != 5) return NodeError(n, "attribute '" + attr + "' must have 5 values, has " + std::to_string(v.size()));
  if (v[0] != 1 || v[ndhwc ? 4 : 1] != 1)
    return NodeUnsupported(n, "attribute '" + attr + "' must be 1 on the batch and channel dims");
  const size_t first = ndhwc ? 1 : 2;
  Triple t = {v[first], v[first + 1], v[first + 2]};
  for (int64_t x : t)
    if (x < 1 || x > kMaxWindowValue)
      return NodeError(n, "attribute '" + attr + "' has " + std::to_string(x) + ", which must be in 1.." +
                              std::to_string(kMaxWindowValue));
  return t;
}

// The input as NCDHW.
Result<Endpoint> VolumeInput(const tf::NodeDef& n, TfGraphBuilder& b, bool ndhwc) {
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, 0));
  if (b.LogicalRank(v) != 5) return NodeError(n, "input must be 5-D, but is " + b.Desc(v.ep).ToString());
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(v));
  if (!ndhwc) return x;
  GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Transpose", {x}, {{"perm", kNdhwcToNcdhw}}, "to_ncdhw"));
  return Endpoint{t, 0};
}

// kernel_shape, strides, dilations and the pads of TF's `padding` (SAME with
// an unknown spatial dim: auto_pad SAME_UPPER, the same rule applied later).
Result<std::map<std::string, AttrValue>> WindowAttrs(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint x,
                                                     const Triple& kernel, const Triple& stride,
                                                     const Triple& dilation) {
  GE_ASSIGN_OR_RETURN(std::string padding, AttrString(n, "padding"));
  const std::vector<int64_t>& d = b.Desc(x).dims;
  std::map<std::string, AttrValue> attrs;
  if (padding == "VALID") {
    attrs["pads"] = std::vector<int64_t>(6, 0);
  } else if (padding == "SAME") {
    if (d[2] < 0 || d[3] < 0 || d[4] < 0) {
      attrs["auto_pad"] = std::string("SAME_UPPER");
    } else {
      std::vector<int64_t> pads(6);
      for (size_t i = 0; i < 3; ++i)
        std::tie(pads[i], pads[i + 3]) = SamePadding(d[i + 2], kernel[i], stride[i], dilation[i]);
      attrs["pads"] = pads;
    }
  } else {
    return NodeUnsupported(n, "padding '" + padding + "' is not supported (SAME, VALID)");
  }
  attrs["kernel_shape"] = std::vector<int64_t>(kernel.begin(), kernel.end());
  attrs["strides"] = std::vector<int64_t>(stride.begin(), stride.end());
  return attrs;
}

// Defines n's output from the NCDHW result `y` (transposed back for NDHWC).
Status DefineVolume(const tf::NodeDef& n, TfGraphBuilder& b, Node* y, bool ndhwc) {
  Endpoint out{y, 0};
  if (ndhwc) {
    GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Transpose", {out}, {{"perm", kNcdhwToNdhwc}}));
    out = Endpoint{t, 0};
  }
  b.Define(n, 0, TfValue{out, false});
  return Status::Ok();
}

Status MapConv3D(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool ndhwc, IsNdhwc(n));
  GE_ASSIGN_OR_RETURN(Endpoint x, VolumeInput(n, b, ndhwc));
  GE_ASSIGN_OR_RETURN(TfValue f, b.Input(n, 1));
  const std::vector<int64_t> fd = b.LogicalDims(f);  // kd, kh, kw, in, out
  if (fd.size() != 5) return NodeError(n, "filter must be 5-D [kd, kh, kw, in, out], but is " + b.Desc(f.ep).ToString());
  for (int64_t v : fd)
    if (v < 1) return NodeUnsupported(n, "filter " + b.Desc(f.ep).ToString() + " must have a known, non-empty shape");
  const int64_t channels = b.Desc(x).dims[1];
  int64_t group = 1;
  if (channels >= 0) {
    if (channels % fd[3] != 0)
      return NodeError(n, "input has " + std::to_string(channels) + " channels, which the filter's " +
                              std::to_string(fd[3]) + " input channels do not divide");
    group = channels / fd[3];
  }
  GE_ASSIGN_OR_RETURN(Endpoint w, ReorderedFilter(n, b, {4, 3, 0, 1, 2}, {fd[4], fd[3], fd[0], fd[1], fd[2]}));
  GE_ASSIGN_OR_RETURN(Triple stride, Spatial3(n, "strides", ndhwc));
  GE_ASSIGN_OR_RETURN(Triple dilation, Spatial3(n, "dilations", ndhwc, std::vector<int64_t>{1, 1, 1, 1, 1}));
  GE_ASSIGN_OR_RETURN(auto attrs, WindowAttrs(n, b, x, {fd[0], fd[1], fd[2]}, stride, dilation));
  attrs["dilations"] = std::vector<int64_t>(dilation.begin(), dilation.end());
  attrs["group"] = group;
  GE_ASSIGN_OR_RETURN(Node* conv, b.Add(n, "Conv", {x, w}, std::move(attrs), ndhwc ? "conv" : ""));
  return DefineVolume(n, b, conv, ndhwc);
}

Status MapPool3D(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type) {
  GE_ASSIGN_OR_RETURN(bool ndhwc, IsNdhwc(n));
  GE_ASSIGN_OR_RETURN(Endpoint x, VolumeInput(n, b, ndhwc));
  GE_ASSIGN_OR_RETURN(Triple kernel, Spatial3(n, "ksize", ndhwc));
  GE_ASSIGN_OR_RETURN(Triple stride, Spatial3(n, "strides", ndhwc));
  GE_ASSIGN_OR_RETURN(auto attrs, WindowAttrs(n, b, x, kernel, stride, {1, 1, 1}));
  if (type == "AveragePool") attrs["count_include_pad"] = int64_t{0};
  GE_ASSIGN_OR_RETURN(Node* pool, b.Add(n, type, {x}, std::move(attrs), ndhwc ? "pool" : ""));
  return DefineVolume(n, b, pool, ndhwc);
}

}  // namespace

void AddVolumeMappers(OpMapperTable& t) {
  t["Conv3D"] = MapConv3D;
  t["MaxPool3D"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapPool3D(n, b, "MaxPool"); };
  t["AvgPool3D"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapPool3D(n, b, "AveragePool"); };
}

}  // namespace ge::tf_parser
