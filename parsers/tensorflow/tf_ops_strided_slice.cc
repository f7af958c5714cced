// StridedSlice → Slice (+ Squeeze for shrink_axis_mask, + Unsqueeze for
// new_axis_mask), on the input in TF's layout. The sparse spec (begin, end,
// strides with the five masks, an ellipsis standing for the axes not named)
// is expanded to one entry per input axis as TF does; masked bounds become
// the int64 extremes ONNX's Slice clamps.
#include <limits>

#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

struct SliceAxis {
  int64_t axis, start, end, step;
};

Status MapStridedSlice(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> begin, ConstInts(n, b, 1, "begin"));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> end, ConstInts(n, b, 2, "end"));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> strides, ConstInts(n, b, 3, "strides"));
  if (begin.size() != end.size() || begin.size() != strides.size())
    return NodeError(n, "begin, end and strides must have the same length");
  GE_ASSIGN_OR_RETURN(int64_t begin_mask, AttrInt(n, "begin_mask", 0));
  GE_ASSIGN_OR_RETURN(int64_t end_mask, AttrInt(n, "end_mask", 0));
  GE_ASSIGN_OR_RETURN(int64_t ellipsis_mask, AttrInt(n, "ellipsis_mask", 0));
  GE_ASSIGN_OR_RETURN(int64_t new_axis_mask, AttrInt(n, "new_axis_mask", 0));
  GE_ASSIGN_OR_RETURN(int64_t shrink_mask, AttrInt(n, "shrink_axis_mask", 0));
  const int64_t rank = b.LogicalRank(x);
  if (rank < 0) return NodeUnsupported(n, "an input of unknown rank is not supported");
  const int64_t spec = static_cast<int64_t>(begin.size());
  if (spec > 62) return NodeError(n, "more than 62 slice entries");
  auto bit = [](int64_t mask, int64_t i) { return (mask >> i) & 1; };

  int64_t ellipses = 0, real = 0;
  for (int64_t i = 0; i < spec; ++i) {
    if (bit(ellipsis_mask, i)) ++ellipses;
    else if (!bit(new_axis_mask, i)) ++real;
  }
  if (ellipses > 1) return NodeError(n, "more than one ellipsis in ellipsis_mask");
  if (real > rank)
    return NodeError(n, std::to_string(real) + " indices for input " + b.Desc(x.ep).ToString());

  std::vector<SliceAxis> slices;
  std::vector<int64_t> squeeze;  // input axes dropped by shrink_axis_mask
  std::vector<bool> plan;        // output axes in order: true = new axis, false = an input axis
  int64_t d = 0;
  for (int64_t i = 0; i < spec; ++i) {
    if (bit(ellipsis_mask, i)) {
      for (int64_t k = 0; k < rank - real; ++k, ++d) plan.push_back(false);
      continue;
    }
    if (bit(new_axis_mask, i)) {
      plan.push_back(true);
      continue;
    }
    const int64_t stride = strides[i];
    if (stride == 0) return NodeError(n, "strides[" + std::to_string(i) + "] is 0");
    if (bit(shrink_mask, i)) {
      const int64_t s = bit(begin_mask, i) ? 0 : begin[i];
      if (s == kMax) return NodeError(n, "begin[" + std::to_string(i) + "] is out of range");
      slices.push_back({d, s, s == -1 ? kMax : s + 1, 1});
      squeeze.push_back(d);
    } else {
      const int64_t s = bit(begin_mask, i) ? (stride > 0 ? 0 : kMax) : begin[i];
      const int64_t e = bit(end_mask, i) ? (stride > 0 ? kMax : kMin) : end[i];
      if (!(s == 0 && e == kMax && stride == 1)) slices.push_back({d, s, e, stride});
      plan.push_back(false);
    }
    ++d;
  }
  for (; d < rank; ++d) plan.push_back(false);  // the implicit trailing ellipsis
  std::vector<int64_t> new_axes;
  for (size_t i = 0; i < plan.size(); ++i)
    if (plan[i]) new_axes.push_back(static_cast<int64_t>(i));

  GE_ASSIGN_OR_RETURN(Endpoint cur, b.Logical(x));
  if (slices.empty() && squeeze.empty() && new_axes.empty()) {
    b.Define(n, 0, TfValue{cur, false});
    return Status::Ok();
  }
  if (!slices.empty()) {
    std::vector<int64_t> axes, starts, ends, steps;
    for (const SliceAxis& s : slices) {
      axes.push_back(s.axis);
      starts.push_back(s.start);
      ends.push_back(s.end);
      steps.push_back(s.step);
    }
    const bool last = squeeze.empty() && new_axes.empty();
    GE_ASSIGN_OR_RETURN(Node* sl, b.Add(n, "Slice",
                                        {cur, b.AddInt64s(n, "starts", starts), b.AddInt64s(n, "ends", ends),
                                         b.AddInt64s(n, "axes", axes), b.AddInt64s(n, "steps", steps)},
                                        {}, last ? "" : "slice"));
    cur = Endpoint{sl, 0};
  }
  if (!squeeze.empty()) {
    GE_ASSIGN_OR_RETURN(Node* sq, b.Add(n, "Squeeze", {cur, b.AddInt64s(n, "shrink_axes", squeeze)}, {},
                                        new_axes.empty() ? "" : "shrink"));
    cur = Endpoint{sq, 0};
  }
  if (!new_axes.empty()) {
    GE_ASSIGN_OR_RETURN(Node* u, b.Add(n, "Unsqueeze", {cur, b.AddInt64s(n, "new_axes", new_axes)}));
    cur = Endpoint{u, 0};
  }
  b.Define(n, 0, TfValue{cur, false});
  return Status::Ok();
}

}  // namespace

void AddStridedSliceMapper(OpMapperTable& t) { t["StridedSlice"] = MapStridedSlice; }

}  // namespace ge::tf_parser
