#include "tf_conv_window.h"

#include <algorithm>

#include "ge/ops/op_registry.h"
#include "tf_attrs.h"

namespace ge::tf_parser {

Result<std::pair<int64_t, int64_t>> SpatialPair(const tf::NodeDef& n, const std::string& attr, bool nhwc,
                                                std::optional<std::vector<int64_t>> def) {
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> v, AttrInts(n, attr, std::move(def)));
  if (v.size() != 4) return NodeError(n, "attribute '" + attr + "' must have 4 values, has " + std::to_string(v.size()));
  const int64_t batch = v[0], channel = nhwc ? v[3] : v[1];
  const int64_t h = nhwc ? v[1] : v[2], w = nhwc ? v[2] : v[3];
  if (batch != 1 || channel != 1)
    return NodeUnsupported(n, "attribute '" + attr + "' must be 1 on the batch and channel dims");
  if (h < 1 || w < 1) return NodeError(n, "attribute '" + attr + "' must be positive");
  constexpr int64_t kLimit = int64_t{1} << 24;  // keeps the window arithmetic far from overflow
  if (h > kLimit || w > kLimit) return NodeError(n, "attribute '" + attr + "' is implausibly large");
  return std::pair{h, w};
}

std::pair<int64_t, int64_t> SamePadding(int64_t in, int64_t kernel, int64_t stride, int64_t dilation) {
  const int64_t out = (in + stride - 1) / stride;
  const int64_t effective = (kernel - 1) * dilation + 1;
  const int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
  return {total / 2, total - total / 2};
}

Result<std::map<std::string, AttrValue>> PaddingAttrs(const tf::NodeDef& n, bool nhwc, std::pair<int64_t, int64_t> in,
                                                      std::pair<int64_t, int64_t> kernel,
                                                      std::pair<int64_t, int64_t> stride,
                                                      std::pair<int64_t, int64_t> dilation) {
  GE_ASSIGN_OR_RETURN(std::string padding, AttrString(n, "padding"));
  std::map<std::string, AttrValue> attrs;
  if (padding == "VALID") {
    attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  } else if (padding == "SAME") {
    if (in.first < 0 || in.second < 0) {
      attrs["auto_pad"] = std::string("SAME_UPPER");
    } else {
      auto [hb, he] = SamePadding(in.first, kernel.first, stride.first, dilation.first);
      auto [wb, we] = SamePadding(in.second, kernel.second, stride.second, dilation.second);
      attrs["pads"] = std::vector<int64_t>{hb, wb, he, we};
    }
  } else if (padding == "EXPLICIT") {
    GE_ASSIGN_OR_RETURN(std::vector<int64_t> p, AttrInts(n, "explicit_paddings"));
    if (p.size() != 8) return NodeError(n, "explicit_paddings must have 8 values, has " + std::to_string(p.size()));
    const size_t h = nhwc ? 2 : 4, w = nhwc ? 4 : 6, c = nhwc ? 6 : 2;
    if (p[0] || p[1] || p[c] || p[c + 1])
      return NodeUnsupported(n, "explicit_paddings on the batch or channel dims are not supported");
    for (int64_t v : p)
      if (v < 0 || v > kMaxWindowValue)
        return NodeError(n, "explicit_paddings has " + std::to_string(v) + ", which must be in 0.." +
                                std::to_string(kMaxWindowValue));
    attrs["pads"] = std::vector<int64_t>{p[h], p[w], p[h + 1], p[w + 1]};
  } else {
    return NodeUnsupported(n, "padding '" + padding + "' is not supported (SAME, VALID, EXPLICIT)");
  }
  return attrs;
}

}  // namespace ge::tf_parser
