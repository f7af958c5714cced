// Indexing ops, all in TF's own layout:
//   GatherV2  → Gather (constant axis); with batch_dims b > 0, GatherND(batch_dims=b)
//               of Unsqueeze(indices, -1) on params with the axis moved to dim b, and a
//               Transpose putting the indices' dims back after params' dims b..axis-1
//   GatherNd  → Gather on params flattened over the indexed dims, the flat
//               index = Sum(indices * strides) (params' indexed dims known)
//   OneHot    → Where(Equal(Unsqueeze(indices, axis), 0..depth-1), on, off):
//               an index outside [0, depth) gives a row of off_value, as TF
//   TopKV2    → TopK (constant k, largest; sorted) + Cast of the indices to index_type
//   Cumsum    → CumSum (constant axis, exclusive, reverse)
#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

// TF: output = params.shape[:axis] + indices.shape[b:] + params.shape[axis+1:],
// the first b dims shared by params and indices. GatherND with batch_dims=b
// gathers along dim b, so the axis is moved there first; its result has
// the indices' dims before params' dims b..axis-1, which a Transpose swaps.
Status MapBatchGather(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint params, Endpoint indices, int64_t batch,
                      int64_t axis) {
  const int64_t r = b.Desc(params).rank(), q = b.Desc(indices).rank() - batch, m = axis - batch;
  auto range = [](std::vector<int64_t>& v, int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i) v.push_back(i);
  };
  if (m > 0) {
    std::vector<int64_t> perm;
    range(perm, 0, batch);
    perm.push_back(axis);
    range(perm, batch, axis);
    range(perm, axis + 1, r);
    GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Transpose", {params}, {{"perm", perm}}, "axis_to_batch"));
    params = Endpoint{t, 0};
  }
  GE_ASSIGN_OR_RETURN(Endpoint idx, CastTo(n, b, indices, DataType::kInt64, "indices_i64"));
  GE_ASSIGN_OR_RETURN(Node* u, b.Add(n, "Unsqueeze", {idx, b.AddInt64s(n, "last", {-1})}, {}, "tuples"));
  GE_ASSIGN_OR_RETURN(Node* g, b.Add(n, "GatherND", {params, Endpoint{u, 0}}, {{"batch_dims", batch}},
                                     m > 0 ? "gather" : ""));
  Endpoint y{g, 0};
  if (m > 0) {
    std::vector<int64_t> perm;
    range(perm, 0, batch);
    range(perm, batch + q, batch + q + m);
    range(perm, batch, batch + q);
    range(perm, batch + q + m, r - 1 + q);
    GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Transpose", {y}, {{"perm", perm}}));
    y = Endpoint{t, 0};
  }
  b.Define(n, 0, TfValue{y, false});
  return Status::Ok();
}

Status MapGatherV2(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(int64_t batch_dims, AttrInt(n, "batch_dims", 0));
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 3));
  GE_ASSIGN_OR_RETURN(int64_t axis, ScalarInt(n, b, 2, "axis"));
  GE_ASSIGN_OR_RETURN(Endpoint params, b.Logical(in[0]));
  GE_ASSIGN_OR_RETURN(Endpoint indices, b.Logical(in[1]));
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, b.Desc(params).rank()));
  if (batch_dims != 0) {
    const int64_t qr = b.Desc(indices).rank();
    if (b.Desc(indices).unknown_rank()) return NodeUnsupported(n, "batch_dims needs indices of known rank");
    const int64_t bd = batch_dims < 0 ? batch_dims + qr : batch_dims;
    if (bd < 0 || bd > qr || bd > a)
      return NodeError(n, "batch_dims " + std::to_string(batch_dims) + " must be in [-" + std::to_string(qr) + ", " +
                              std::to_string(qr) + "] and at most the axis " + std::to_string(a));
    if (bd > 0) return MapBatchGather(n, b, params, indices, bd, a);
  }
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Gather", {params, indices}, {{"axis", a}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

Status MapGatherNd(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 2));
  GE_ASSIGN_OR_RETURN(Endpoint params, b.Logical(in[0]));
  GE_ASSIGN_OR_RETURN(Endpoint indices, b.Logical(in[1]));
  const std::vector<int64_t>& pd = b.Desc(params).dims;
  const std::vector<int64_t>& id = b.Desc(indices).dims;
  if (b.Desc(params).unknown_rank() || b.Desc(indices).unknown_rank() || id.empty() || id.back() < 1)
    return NodeUnsupported(n, "needs known ranks and a known last indices dim of at least 1");
  const int64_t q = id.back();
  if (q > static_cast<int64_t>(pd.size())) return NodeError(n, "indices address more dims than params has");
  std::vector<int64_t> strides(static_cast<size_t>(q), 1);
  for (int64_t k = q - 1; k > 0; --k) strides[k - 1] = strides[k] * pd[k];
  for (int64_t k = 0; k < q; ++k)
    if (pd[k] < 0) return NodeUnsupported(n, "params' indexed dims must be known");
  std::vector<int64_t> flat_shape = {strides[0] * pd[0]};
  flat_shape.insert(flat_shape.end(), pd.begin() + q, pd.end());
  Endpoint idx = indices;
  if (b.Desc(idx).dtype != DataType::kInt64) {
    GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "Cast", {idx}, {{"to", OnnxElemType(DataType::kInt64)}}, "indices_i64"));
    idx = Endpoint{c, 0};
  }
  GE_ASSIGN_OR_RETURN(Node* scaled, b.Add(n, "Mul", {idx, b.AddInt64s(n, "strides", strides)}, {}, "scaled"));
  GE_ASSIGN_OR_RETURN(Node* flat, b.Add(n, "ReduceSum", {Endpoint{scaled, 0}},
                                        {{"axes", std::vector<int64_t>{-1}}, {"keepdims", int64_t{0}}}, "flat_index"));
  GE_ASSIGN_OR_RETURN(Node* data, b.Add(n, "Reshape", {params, b.AddInt64s(n, "flat_shape", flat_shape)}, {}, "flat"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Gather", {Endpoint{data, 0}, Endpoint{flat, 0}}, {{"axis", int64_t{0}}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

Status MapOneHot(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 4));
  GE_ASSIGN_OR_RETURN(int64_t depth, ScalarInt(n, b, 1, "depth"));
  GE_ASSIGN_OR_RETURN(int64_t axis, AttrInt(n, "axis", -1));
  GE_ASSIGN_OR_RETURN(Endpoint indices, b.Logical(in[0]));
  const DataType it = b.Desc(indices).dtype;
  const int64_t rank = b.Desc(indices).rank();
  if (it != DataType::kInt32 && it != DataType::kInt64)
    return NodeUnsupported(n, std::string("indices of ") + DataTypeName(it) + " are not supported (int32, int64)");
  if (depth < 0) return NodeError(n, "depth must not be negative");
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, rank + 1));
  // 0..depth-1 along output axis a, broadcast against indices with a 1 there.
  std::vector<int64_t> positions(static_cast<size_t>(depth));
  for (int64_t i = 0; i < depth; ++i) positions[i] = i;
  std::vector<int64_t> dims = {depth};
  dims.resize(static_cast<size_t>(rank + 1 - a), 1);
  Tensor range = it == DataType::kInt64
                     ? Tensor::FromVector(it, dims, positions)
                     : Tensor::FromVector(it, dims, std::vector<int32_t>(positions.begin(), positions.end()));
  GE_ASSIGN_OR_RETURN(Node* u, b.Add(n, "Unsqueeze", {indices, b.AddInt64s(n, "axes", {a})}, {}, "expand"));
  GE_ASSIGN_OR_RETURN(Node* eq, b.Add(n, "Equal", {Endpoint{u, 0}, b.AddConst(n, "positions", range)}, {}, "hot"));
  GE_ASSIGN_OR_RETURN(Endpoint on, b.Logical(in[2]));
  GE_ASSIGN_OR_RETURN(Endpoint off, b.Logical(in[3]));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Where", {Endpoint{eq, 0}, on, off}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

Status MapTopKV2(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool sorted, AttrBool(n, "sorted", true));
  GE_ASSIGN_OR_RETURN(int index_type, AttrType(n, "index_type", tf::DT_INT32));
  if (index_type != tf::DT_INT32 && index_type != tf::DT_INT64)
    return NodeUnsupported(n, "index_type must be int32 or int64");
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 2));
  GE_ASSIGN_OR_RETURN(int64_t k, ScalarInt(n, b, 1, "k"));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(in[0]));
  GE_ASSIGN_OR_RETURN(Node* top, b.Add(n, "TopK", {x, b.AddInt64s(n, "k", {k})},
                                       {{"axis", int64_t{-1}}, {"largest", int64_t{1}}, {"sorted", int64_t{sorted}}},
                                       "", 2));
  b.Define(n, 0, TfValue{Endpoint{top, 0}, false});
  Endpoint idx{top, 1};
  if (index_type == tf::DT_INT32) {
    GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "Cast", {idx}, {{"to", OnnxElemType(DataType::kInt32)}}, "indices"));
    idx = Endpoint{c, 0};
  }
  b.Define(n, 1, TfValue{idx, false});
  return Status::Ok();
}

Status MapCumsum(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool exclusive, AttrBool(n, "exclusive", false));
  GE_ASSIGN_OR_RETURN(bool reverse, AttrBool(n, "reverse", false));
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 2));
  GE_ASSIGN_OR_RETURN(int64_t axis, ScalarInt(n, b, 1, "axis"));
  GE_ASSIGN_OR_RETURN(Endpoint x, b.Logical(in[0]));
  GE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(n, axis, b.Desc(x).rank()));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "CumSum", {x, b.AddInt64s(n, "axis", {a}, true)},
                                     {{"exclusive", int64_t{exclusive}}, {"reverse", int64_t{reverse}}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

}  // namespace

void AddIndexMappers(OpMapperTable& t) {
  t["GatherV2"] = MapGatherV2;
  t["GatherNd"] = MapGatherNd;
  t["OneHot"] = MapOneHot;
  t["TopKV2"] = MapTopKV2;
  t["Cumsum"] = MapCumsum;
}

}  // namespace ge::tf_parser
