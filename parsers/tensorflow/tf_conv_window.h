// TF's sliding-window attributes (Conv2D, DepthwiseConv2dNative, MaxPool,
// AvgPool) → the IR's: 4-element lists in data_format order reduced to their
// two spatial entries, and TF's padding (SAME, VALID, EXPLICIT) turned into
// explicit pads. TF's SAME pads asymmetrically with the odd one at the end:
//   out = ceil(in / stride), total = max((out - 1) * stride + (k - 1) * dilation + 1 - in, 0),
//   begin = total / 2, end = total - begin.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ge/ir/attr_value.h"
#include "ge_base/status.h"
#include "tf_graph.pb.h"

namespace ge::tf_parser {

// {h, w} of a 4-element list attribute; batch and channel entries must be 1.
Result<std::pair<int64_t, int64_t>> SpatialPair(const tf::NodeDef& n, const std::string& attr, bool nhwc,
                                                std::optional<std::vector<int64_t>> def = std::nullopt);

// TF's SAME padding of one axis: {begin, end}.
std::pair<int64_t, int64_t> SamePadding(int64_t in, int64_t kernel, int64_t stride, int64_t dilation);

// "pads" ({h_begin, w_begin, h_end, w_end}) for the node's padding attribute,
// given the input's spatial size (-1 when unknown: SAME then becomes
// auto_pad SAME_UPPER, which is the same rule evaluated later).
Result<std::map<std::string, AttrValue>> PaddingAttrs(const tf::NodeDef& n, bool nhwc, std::pair<int64_t, int64_t> in,
                                                      std::pair<int64_t, int64_t> kernel,
                                                      std::pair<int64_t, int64_t> stride,
                                                      std::pair<int64_t, int64_t> dilation);

}  // namespace ge::tf_parser
