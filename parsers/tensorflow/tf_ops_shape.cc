// Shape-making and splitting ops, in TF's own layout:
//   Range                → Range (start, limit, delta)
//   Fill, BroadcastTo    → Expand(value, shape)
//   ZerosLike, OnesLike  → Expand(Cast(0 or 1), Shape(x)) (folded when x's shape is static)
//   Tile                 → Tile (int64 multiples)
//   Split, SplitV        → Split (constant axis; SplitV's one -1 size resolved here)
//   Unpack               → Split + Squeeze of each part
//   Slice                → Slice (constant begin/size; size -1 runs to the end)
//   ReverseV2            → Slice with step -1 on each axis
#include <limits>
#include <set>

#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

constexpr int64_t kToEnd = std::numeric_limits<int64_t>::max();
constexpr int64_t kToFront = std::numeric_limits<int64_t>::min();

// y = `type`(input `data`, int64 operand `shape_input`), e.g. Expand, Tile.
Status MapWithShape(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type, int data, int shape_input,
                    const std::string& what) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, data));
  GE_ASSIGN_OR_RETURN(Endpoint ex, b.Logical(x));
  GE_ASSIGN_OR_RETURN(Endpoint shape, Int64Input(n, b, shape_input, what));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, type, {ex, shape}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

Status MapRange(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 3));
  std::vector<Endpoint> eps;
  for (const TfValue& v : in) {
    GE_ASSIGN_OR_RETURN(Endpoint e, b.Logical(v));
    eps.push_back(e);
  }
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Range", eps));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

Status MapConstantLike(const tf::NodeDef& n, TfGraphBuilder& b, float value) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  const DataType dt = b.Desc(x.ep).dtype;
  if (OnnxElemType(dt) < 0) return NodeUnsupported(n, std::string("dtype ") + DataTypeName(dt) + " is not supported");
  Endpoint one = b.AddConst(n, "value_f32", Tensor::FromVector(DataType::kFloat32, {}, std::vector<float>{value}));
  GE_ASSIGN_OR_RETURN(Node* v, b.Add(n, "Cast", {one}, {{"to", OnnxElemType(dt)}}, "value"));
  GE_ASSIGN_OR_RETURN(Node* s, b.Add(n, "Shape", {x.ep}, {}, "shape"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Expand", {Endpoint{v, 0}, Endpoint{s, 0}}));
  // Expand over the held shape: the result is held like x.
  b.Define(n, 0, TfValue{Endpoint{y, 0}, x.nchw});
  return Status::Ok();
}

// Split x along `axis` into parts of `sizes` (empty: `count` equal parts).
Result<Node*> AddSplit(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint x, int64_t axis, int64_t count,
                       const std::vector<int64_t>& sizes, const std::string& suffix) {
  if (count < 1) return NodeError(n, "needs at least one output");
  std::vector<Endpoint> ins = {x};
  if (!sizes.empty()) ins.push_back(b.AddInt64s(n, "sizes", sizes));
  return b.Add(n, "Split", ins, {{"axis", axis}, {"num_outputs", count}}, suffix, static_cast<size_t>(count));
}

Status MapSplit(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(int64_t count, AttrInt(n, "num_split"));
  GE_ASSIGN_OR_RETURN(int64_t axis, ScalarInt(n, b, 0, "split_dim"));
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, 1));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(v));
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, b.Desc(x).rank()));
  const int64_t dim = b.Desc(x).dims[a];
  if (dim >= 0 && count > 0 && dim % count != 0)
    return NodeError(n, "axis of size " + std::to_string(dim) + " does not split into " + std::to_string(count));
  GE_ASSIGN_OR_RETURN(Node* s, AddSplit(n, b, x, a, count, {}, ""));
  for (int64_t k = 0; k < count; ++k) b.Define(n, static_cast<int>(k), TfValue{Endpoint{s, static_cast<int>(k)}, false});
  return Status::Ok();
}

Status MapSplitV(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ConstInts(n, b, 1, "size_splits"));
  GE_ASSIGN_OR_RETURN(int64_t axis, ScalarInt(n, b, 2, "split_dim"));
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(v));
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, b.Desc(x).rank()));
  const int64_t dim = b.Desc(x).dims[a];
  int64_t known = 0, unknown_at = -1;
  for (size_t k = 0; k < sizes.size(); ++k) {
    if (sizes[k] == -1 && unknown_at < 0) unknown_at = static_cast<int64_t>(k);
    else if (sizes[k] < 0) return NodeError(n, "size_splits may hold one -1 and no other negative size");
    else known += sizes[k];
  }
  if (unknown_at >= 0) {
    if (dim < 0) return NodeUnsupported(n, "a -1 in size_splits needs the axis size known");
    if (known > dim) return NodeError(n, "size_splits add up to more than the axis size");
    sizes[unknown_at] = dim - known;
  }
  GE_ASSIGN_OR_RETURN(Node* s, AddSplit(n, b, x, a, static_cast<int64_t>(sizes.size()), sizes, ""));
  for (size_t k = 0; k < sizes.size(); ++k) b.Define(n, static_cast<int>(k), TfValue{Endpoint{s, static_cast<int>(k)}, false});
  return Status::Ok();
}

Status MapUnpack(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(int64_t count, AttrInt(n, "num"));
  GE_ASSIGN_OR_RETURN(int64_t axis, AttrInt(n, "axis", 0));
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(v));
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, b.Desc(x).rank()));
  if (b.Desc(x).dims[a] >= 0 && b.Desc(x).dims[a] != count)
    return NodeError(n, "num " + std::to_string(count) + " differs from the axis size " + std::to_string(b.Desc(x).dims[a]));
  std::vector<Endpoint> parts = {x};
  if (count != 1) {
    GE_ASSIGN_OR_RETURN(Node* s, AddSplit(n, b, x, a, count, {}, "split"));
    parts.clear();
    for (int64_t k = 0; k < count; ++k) parts.push_back(Endpoint{s, static_cast<int>(k)});
  }
  Endpoint axes = b.AddInt64s(n, "axes", {a});
  for (int64_t k = 0; k < count; ++k) {
    GE_ASSIGN_OR_RETURN(Node* q, b.Add(n, "Squeeze", {parts[k], axes}, {}, count == 1 ? "" : "part_" + std::to_string(k)));
    b.Define(n, static_cast<int>(k), TfValue{Endpoint{q, 0}, false});
  }
  return Status::Ok();
}

Status MapSlice(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> begin, ConstInts(n, b, 1, "begin"));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> size, ConstInts(n, b, 2, "size"));
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(v));
  if (begin.size() != size.size() || static_cast<int64_t>(begin.size()) != b.Desc(x).rank())
    return NodeError(n, "begin and size need one value per dim of " + b.Desc(x).ToString());
  std::vector<int64_t> ends, axes;
  for (size_t k = 0; k < begin.size(); ++k) {
    if (begin[k] < 0 || size[k] < -1) return NodeError(n, "begin must be >= 0 and size >= -1");
    ends.push_back(size[k] == -1 ? kToEnd : begin[k] + size[k]);
    axes.push_back(static_cast<int64_t>(k));
  }
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Slice", {x, b.AddInt64s(n, "starts", begin), b.AddInt64s(n, "ends", ends),
                                                  b.AddInt64s(n, "axes", axes)}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

Status MapReverseV2(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> axis, ConstInts(n, b, 1, "axis"));
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(v));
  std::set<int64_t> axes;
  for (int64_t a : axis) {
    GE_ASSIGN_OR_RETURN(int64_t na, NormalizeAxis(n, a, b.Desc(x).rank()));
    if (!axes.insert(na).second) return NodeError(n, "axis " + std::to_string(a) + " is given twice");
  }
  if (axes.empty()) {
    b.Define(n, 0, TfValue{x, false});
    return Status::Ok();
  }
  const size_t k = axes.size();
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Slice", {x, b.AddInt64s(n, "starts", std::vector<int64_t>(k, -1)),
                                                  b.AddInt64s(n, "ends", std::vector<int64_t>(k, kToFront)),
                                                  b.AddInt64s(n, "axes", std::vector<int64_t>(axes.begin(), axes.end())),
                                                  b.AddInt64s(n, "steps", std::vector<int64_t>(k, -1))}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

}  // namespace

void AddShapeMappers(OpMapperTable& t) {
  t["Range"] = MapRange;
  t["Fill"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapWithShape(n, b, "Expand", 1, 0, "dims"); };
  t["BroadcastTo"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapWithShape(n, b, "Expand", 0, 1, "shape"); };
  t["Tile"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapWithShape(n, b, "Tile", 0, 1, "multiples"); };
  t["ZerosLike"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapConstantLike(n, b, 0.f); };
  t["OnesLike"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapConstantLike(n, b, 1.f); };
  t["Split"] = MapSplit;
  t["SplitV"] = MapSplitV;
  t["Unpack"] = MapUnpack;
  t["Slice"] = MapSlice;
  t["ReverseV2"] = MapReverseV2;
}

}  // namespace ge::tf_parser
