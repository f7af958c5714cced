// Data-dependent and scatter ops, in TF's own layout:
//   Where (one input)        → Transpose(NonZero(x)): int64 [N, rank], row-major order
//   Unique, UniqueV2         → Unique(sorted=0): y in order of first occurrence, idx =
//   UniqueWithCounts(V2)       inverse_indices (+ counts), Cast to out_idx
//   ScatterNd                → ScatterND(reduction=add) onto ConstantOfShape(shape, 0):
//                              TF sums duplicate indices
//   TensorScatterUpdate/Add/Sub/Max/Min → ScatterND(none/add/add of Neg/max/min)
//   UnsortedSegmentSum/Prod/Max/Min → ScatterND(add/mul/max/min) of data at
//                              Unsqueeze(segment_ids, -1) onto [num_segments + 1, ...]
//                              filled with the reduction's identity (Max: the lowest
//                              value, Min: the highest, as TF leaves empty segments);
//                              negative ids go to the extra row, which a Slice drops
//   SegmentSum/Prod/Max/Min/Mean → the same over max(segment_ids) + 1 segments; empty
//                              segments give 0 (Prod: 1) as TF's sorted forms do
#include <limits>

#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

// The one value of a Filled tensor.
Result<Tensor> FillValue(const tf::NodeDef& n, DataType dt, Fill fill) {
  auto make = [&](auto typed) {
    using T = decltype(typed);
    T v = fill == Fill::kZero ? T(0) : fill == Fill::kOne ? T(1)
          : fill == Fill::kLowest ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    return Tensor::FromVector(dt, {1}, std::vector<T>{v});
  };
  switch (dt) {
    case DataType::kFloat32: return make(float{});
    case DataType::kFloat64: return make(double{});
    case DataType::kInt32: return make(int32_t{});
    case DataType::kInt64: return make(int64_t{});
    default: return NodeUnsupported(n, std::string("data of ") + DataTypeName(dt) + " is not supported (f32, f64, i32, i64)");
  }
}

}  // namespace

Result<Endpoint> Filled(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint shape, DataType dt, Fill fill,
                        const std::string& suffix) {
  GE_ASSIGN_OR_RETURN(Tensor value, FillValue(n, dt, fill));
  GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "ConstantOfShape", {shape}, {{"value", value}}, suffix));
  return Endpoint{c, 0};
}

namespace {

Status MapWhere(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 1));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(in[0]));
  if (!b.Desc(x).unknown_rank() && b.Desc(x).rank() == 0)
    return NodeUnsupported(n, "a scalar condition is not supported");
  GE_ASSIGN_OR_RETURN(Node* nz, b.Add(n, "NonZero", {x}, {}, "nonzero"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Transpose", {Endpoint{nz, 0}}, {{"perm", std::vector<int64_t>{1, 0}}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

Status MapUnique(const tf::NodeDef& n, TfGraphBuilder& b, bool v2, bool counts) {
  GE_ASSIGN_OR_RETURN(int out_idx, AttrType(n, "out_idx", tf::DT_INT32));
  if (out_idx != tf::DT_INT32 && out_idx != tf::DT_INT64) return NodeUnsupported(n, "out_idx must be int32 or int64");
  const DataType idx_type = out_idx == tf::DT_INT32 ? DataType::kInt32 : DataType::kInt64;
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, v2 ? 2 : 1));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(in[0]));
  const TensorDesc& d = b.Desc(x);
  std::map<std::string, AttrValue> attrs = {{"sorted", int64_t{0}}};
  std::vector<int64_t> axis;
  if (v2) {
    GE_ASSIGN_OR_RETURN(axis, ConstInts(n, b, 1, "axis"));
  }
  if (axis.size() > 1) return NodeError(n, "axis must hold at most one value");
  if (axis.empty()) {
    if (d.unknown_rank() || d.rank() != 1) return NodeError(n, "x must be 1-D, but is " + d.ToString());
  } else {
    GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis[0], d.unknown_rank() ? -1 : d.rank()));
    attrs["axis"] = a;
  }
  GE_ASSIGN_OR_RETURN(Node* u, b.Add(n, "Unique", {x}, std::move(attrs), "", counts ? 4 : 3));
  b.Define(n, 0, TfValue{Endpoint{u, 0}, false});
  GE_ASSIGN_OR_RETURN(Endpoint idx, CastTo(n, b, Endpoint{u, 2}, idx_type, "idx"));
  b.Define(n, 1, TfValue{idx, false});
  if (counts) {
    GE_ASSIGN_OR_RETURN(Endpoint c, CastTo(n, b, Endpoint{u, 3}, idx_type, "count"));
    b.Define(n, 2, TfValue{c, false});
  }
  return Status::Ok();
}

Status MapScatterNd(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 3));
  GE_ASSIGN_OR_RETURN(Endpoint indices, b.Logical(in[0]));
  GE_ASSIGN_OR_RETURN(Endpoint updates, b.Logical(in[1]));
  GE_ASSIGN_OR_RETURN(Endpoint shape, Int64Input(n, b, 2, "shape"));
  GE_ASSIGN_OR_RETURN(Endpoint zeros, Filled(n, b, shape, b.Desc(updates).dtype, Fill::kZero, "zeros"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "ScatterND", {zeros, indices, updates}, {{"reduction", std::string("add")}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

Status MapTensorScatter(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& reduction, bool negate) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 3));
  GE_ASSIGN_OR_RETURN(Endpoint data, b.Logical(in[0]));
  GE_ASSIGN_OR_RETURN(Endpoint indices, b.Logical(in[1]));
  GE_ASSIGN_OR_RETURN(Endpoint updates, b.Logical(in[2]));
  if (negate) {
    GE_ASSIGN_OR_RETURN(Node* neg, b.Add(n, "Neg", {updates}, {}, "negated"));
    updates = Endpoint{neg, 0};
  }
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "ScatterND", {data, indices, updates}, {{"reduction", reduction}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

struct SegmentOp {
  std::string reduction;  // ScatterND's
  Fill fill;              // what an empty segment holds before any fix-up
};

// data reduced into `segments` rows (an int64 [1] value) at ids (int64, the
// shape of data's leading dims): [segments, data.shape[ids.rank:]...].
Result<Endpoint> ScatterSegments(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint data, Endpoint ids,
                                 Endpoint segments, const SegmentOp& op, const std::string& suffix) {
  const int64_t id_rank = b.Desc(ids).rank();
  GE_ASSIGN_OR_RETURN(Node* rest, b.Add(n, "Shape", {data}, {{"start", id_rank}}, suffix + "_row_shape"));
  GE_ASSIGN_OR_RETURN(Node* shape, b.Add(n, "Concat", {segments, Endpoint{rest, 0}}, {{"axis", int64_t{0}}},
                                         suffix + "_shape"));
  GE_ASSIGN_OR_RETURN(Endpoint init, Filled(n, b, Endpoint{shape, 0}, b.Desc(data).dtype, op.fill, suffix + "_init"));
  GE_ASSIGN_OR_RETURN(Node* tuples, b.Add(n, "Unsqueeze", {ids, b.AddInt64s(n, suffix + "_last", {-1})}, {},
                                          suffix + "_index"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "ScatterND", {init, Endpoint{tuples, 0}, data},
                                     {{"reduction", op.reduction}}, suffix));
  return Endpoint{y, 0};
}

Result<std::pair<Endpoint, Endpoint>> SegmentOperands(const tf::NodeDef& n, TfGraphBuilder& b, int arity) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, arity));
  GE_ASSIGN_OR_RETURN(Endpoint data, b.Logical(in[0]));
  GE_ASSIGN_OR_RETURN(Endpoint ids, b.Logical(in[1]));
  const TensorDesc &dd = b.Desc(data), &id = b.Desc(ids);
  if (dd.unknown_rank() || id.unknown_rank() || id.rank() > dd.rank())
    return NodeUnsupported(n, "data " + dd.ToString() + " and segment_ids " + id.ToString() +
                                  " need known ranks, the ids' no larger");
  GE_ASSIGN_OR_RETURN(ids, CastTo(n, b, ids, DataType::kInt64, "ids_i64"));
  return std::pair{data, ids};
}

Status MapUnsortedSegment(const tf::NodeDef& n, TfGraphBuilder& b, const SegmentOp& op) {
  GE_ASSIGN_OR_RETURN(auto operands, SegmentOperands(n, b, 3));
  auto [data, ids] = operands;
  GE_ASSIGN_OR_RETURN(int64_t segments, ScalarInt(n, b, 2, "num_segments"));
  if (segments < 0) return NodeError(n, "num_segments must not be negative");
  // Negative ids (dropped by TF) go to row `segments`, sliced off below.
  GE_ASSIGN_OR_RETURN(Endpoint zero, AddScalar(n, b, "zero", DataType::kInt64, 0));
  GE_ASSIGN_OR_RETURN(Endpoint spare, AddScalar(n, b, "spare_row", DataType::kInt64, static_cast<double>(segments)));
  GE_ASSIGN_OR_RETURN(Node* neg, b.Add(n, "Less", {ids, zero}, {}, "dropped"));
  GE_ASSIGN_OR_RETURN(Node* kept, b.Add(n, "Where", {Endpoint{neg, 0}, spare, ids}, {}, "ids_kept"));
  GE_ASSIGN_OR_RETURN(Endpoint all, ScatterSegments(n, b, data, Endpoint{kept, 0},
                                                    b.AddInt64s(n, "rows", {segments + 1}), op, "scatter"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Slice", {all, b.AddInt64s(n, "starts", {0}),
                                                 b.AddInt64s(n, "ends", {segments}), b.AddInt64s(n, "axes", {0})}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

// The sorted forms: max(ids) + 1 segments. Max, Min and Mean need the
// count of each segment: an empty one gives 0, not the reduction's identity.
Status MapSegment(const tf::NodeDef& n, TfGraphBuilder& b, const SegmentOp& op, bool mean) {
  GE_ASSIGN_OR_RETURN(auto operands, SegmentOperands(n, b, 2));
  auto [data, ids] = operands;
  if (b.Desc(ids).rank() != 1) return NodeError(n, "segment_ids must be 1-D, but is " + b.Desc(ids).ToString());
  GE_ASSIGN_OR_RETURN(Node* top, b.Add(n, "ReduceMax", {ids}, {{"axes", std::vector<int64_t>{0}}, {"keepdims", int64_t{1}}},
                                       "max_id"));
  GE_ASSIGN_OR_RETURN(Endpoint one, AddScalar(n, b, "one", DataType::kInt64, 1));
  GE_ASSIGN_OR_RETURN(Node* segments, b.Add(n, "Add", {Endpoint{top, 0}, one}, {}, "segments"));
  const bool counted = mean || op.fill == Fill::kLowest || op.fill == Fill::kHighest;
  GE_ASSIGN_OR_RETURN(Endpoint y, ScatterSegments(n, b, data, ids, Endpoint{segments, 0}, op, counted ? "scatter" : ""));
  if (!counted) {
    b.Define(n, 0, TfValue{y, false});
    return Status::Ok();
  }
  // count[s] in data's dtype, shaped [segments, 1, ...] to broadcast over a row.
  const DataType dt = b.Desc(data).dtype;
  GE_ASSIGN_OR_RETURN(Endpoint unit, AddScalar(n, b, "unit", dt, 1));
  GE_ASSIGN_OR_RETURN(Node* ids_shape, b.Add(n, "Shape", {ids}, {}, "ids_shape"));
  GE_ASSIGN_OR_RETURN(Node* ones, b.Add(n, "Expand", {unit, Endpoint{ids_shape, 0}}, {}, "ones"));
  GE_ASSIGN_OR_RETURN(Endpoint count, ScatterSegments(n, b, Endpoint{ones, 0}, ids, Endpoint{segments, 0},
                                                      SegmentOp{"add", Fill::kZero}, "count"));
  std::vector<int64_t> row_axes;
  for (int64_t a = 1; a < b.Desc(data).rank(); ++a) row_axes.push_back(a);
  if (!row_axes.empty()) {
    GE_ASSIGN_OR_RETURN(Node* u, b.Add(n, "Unsqueeze", {count, b.AddInt64s(n, "row_axes", row_axes)}, {}, "count_rows"));
    count = Endpoint{u, 0};
  }
  Node* out = nullptr;
  if (mean) {
    GE_ASSIGN_OR_RETURN(Node* at_least_one, b.Add(n, "Max", {count, unit}, {}, "divisor"));
    GE_ASSIGN_OR_RETURN(out, b.Add(n, "Div", {y, Endpoint{at_least_one, 0}}));
  } else {
    GE_ASSIGN_OR_RETURN(Endpoint zero, AddScalar(n, b, "zero", dt, 0));
    GE_ASSIGN_OR_RETURN(Node* filled, b.Add(n, "Greater", {count, zero}, {}, "non_empty"));
    GE_ASSIGN_OR_RETURN(out, b.Add(n, "Where", {Endpoint{filled, 0}, y, zero}));
  }
  b.Define(n, 0, TfValue{Endpoint{out, 0}, false});
  return Status::Ok();
}

}  // namespace

void AddScatterMappers(OpMapperTable& t) {
  t["Where"] = MapWhere;
  t["Unique"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapUnique(n, b, false, false); };
  t["UniqueV2"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapUnique(n, b, true, false); };
  t["UniqueWithCounts"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapUnique(n, b, false, true); };
  t["UniqueWithCountsV2"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapUnique(n, b, true, true); };
  t["ScatterNd"] = MapScatterNd;
  const std::map<std::string, std::pair<std::string, bool>> tensor_scatter = {
      {"TensorScatterUpdate", {"none", false}}, {"TensorScatterAdd", {"add", false}},
      {"TensorScatterSub", {"add", true}},      {"TensorScatterMax", {"max", false}},
      {"TensorScatterMin", {"min", false}}};
  for (const auto& [op, how] : tensor_scatter)
    t[op] = [how = how](const tf::NodeDef& n, TfGraphBuilder& b) { return MapTensorScatter(n, b, how.first, how.second); };
  const std::map<std::string, SegmentOp> segment = {{"Sum", {"add", Fill::kZero}},
                                                    {"Prod", {"mul", Fill::kOne}},
                                                    {"Max", {"max", Fill::kLowest}},
                                                    {"Min", {"min", Fill::kHighest}}};
  for (const auto& [name, op] : segment) {
    t["UnsortedSegment" + name] = [op = op](const tf::NodeDef& n, TfGraphBuilder& b) {
      return MapUnsortedSegment(n, b, op);
    };
    t["Segment" + name] = [op = op](const tf::NodeDef& n, TfGraphBuilder& b) { return MapSegment(n, b, op, false); };
  }
  t["SegmentMean"] = [](const tf::NodeDef& n, TfGraphBuilder& b) {
    return MapSegment(n, b, SegmentOp{"add", Fill::kZero}, true);
  };
}

}  // namespace ge::tf_parser
