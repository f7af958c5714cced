// Elementwise math, MatMul, reductions, Softmax and Cast. Elementwise ops
// keep a NCHW-held operand NCHW-held (the other operand is broadcast in the
// NCHW equivalent of TF's NHWC broadcasting); reductions and Softmax remap
// their axes instead of transposing.
//   Relu, Sigmoid, Tanh, Exp, Log, Sqrt, Abs, Neg → the op of the same name
//   Relu6                                        → Clip(x, 0, 6)
//   Add, AddV2, Sub, Mul, RealDiv, Maximum, Minimum → Add, Sub, Mul, Div, Max, Min
//   MatMul                                       → MatMul, or Gemm(transA, transB)
//   Mean, Sum, Max, Min, Prod                    → ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd
//   EuclideanNorm                                → ReduceL2
//   Softmax, LogSoftmax                          → Softmax, LogSoftmax over the last axis
//   Cast                                         → Cast(to = DstT)
#include <set>

#include "tf_attrs.h"
#include "tf_layout.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

Status MapRelu6(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  const DataType dt = b.Desc(x.ep).dtype;
  Endpoint lo, hi;
  if (dt == DataType::kFloat32) {
    lo = b.AddConst(n, "min", Tensor::FromVector(dt, {}, std::vector<float>{0.f}));
    hi = b.AddConst(n, "max", Tensor::FromVector(dt, {}, std::vector<float>{6.f}));
  } else if (dt == DataType::kFloat64) {
    lo = b.AddConst(n, "min", Tensor::FromVector(dt, {}, std::vector<double>{0.0}));
    hi = b.AddConst(n, "max", Tensor::FromVector(dt, {}, std::vector<double>{6.0}));
  } else {
    return NodeUnsupported(n, std::string("Relu6 of ") + DataTypeName(dt) + " is not supported (f32, f64)");
  }
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Clip", {x.ep, lo, hi}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, x.nchw});
  return Status::Ok();
}

Status MapMatMul(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(bool ta, AttrBool(n, "transpose_a", false));
  GE_ASSIGN_OR_RETURN(bool tb, AttrBool(n, "transpose_b", false));
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(TfValue y, b.Input(n, 1));
  GE_ASSIGN_OR_RETURN(Endpoint ex, b.Logical(x));
  GE_ASSIGN_OR_RETURN(Endpoint ey, b.Logical(y));
  if (b.Desc(ex).rank() != 2 || b.Desc(ey).rank() != 2)
    return NodeError(n, "MatMul takes 2-D operands, got " + b.Desc(ex).ToString() + " and " + b.Desc(ey).ToString());
  Node* z = nullptr;
  if (ta || tb) {
    GE_ASSIGN_OR_RETURN(z, b.Add(n, "Gemm", {ex, ey}, {{"transA", int64_t{ta}}, {"transB", int64_t{tb}}}));
  } else {
    GE_ASSIGN_OR_RETURN(z, b.Add(n, "MatMul", {ex, ey}));
  }
  b.Define(n, 0, TfValue{Endpoint{z, 0}, false});
  return Status::Ok();
}

Status MapSoftmax(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  // TF normalises over the last logical axis: C, which a NCHW-held value keeps at 1.
  const int64_t axis = x.nchw ? 1 : -1;
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, type, {x.ep}, {{"axis", axis}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, x.nchw});
  return Status::Ok();
}

Status MapCast(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(DataType to, DtypeAttr(n, "DstT"));
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Cast", {x.ep}, {{"to", OnnxElemType(to)}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, x.nchw});
  return Status::Ok();
}

}  // namespace

Status MapReduce(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ConstInts(n, b, 1, "reduction_indices"));
  GE_ASSIGN_OR_RETURN(bool keep, AttrBool(n, "keep_dims", false));
  if (axes.empty()) {  // TF reduces nothing: the input itself
    b.Define(n, 0, x);
    return Status::Ok();
  }
  const int64_t rank = b.LogicalRank(x);
  if (rank < 0) return NodeUnsupported(n, "reducing an input of unknown rank is not supported");
  std::set<int64_t> logical;
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      return NodeError(n, "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    logical.insert(a < 0 ? a + rank : a);
  }
  // Axes as the attribute: the backend checks a reduction before constants are bound.
  if (x.nchw && (keep || DropKeepsLogicalOrder(logical))) {
    std::set<int64_t> physical;
    for (int64_t a : logical) physical.insert(PhysicalAxis(a));
    GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, type, {x.ep},
                                       {{"keepdims", int64_t{keep}},
                                        {"axes", std::vector<int64_t>(physical.begin(), physical.end())}}));
    b.Define(n, 0, TfValue{Endpoint{r, 0}, keep});
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(Endpoint ex, b.Logical(x));
  GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, type, {ex},
                                     {{"keepdims", int64_t{keep}},
                                      {"axes", std::vector<int64_t>(logical.begin(), logical.end())}}));
  b.Define(n, 0, TfValue{Endpoint{r, 0}, false});
  return Status::Ok();
}

void AddMathMappers(OpMapperTable& t) {
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Abs", "Neg"}) t[op] = Elementwise(op, 1);
  t["Relu6"] = MapRelu6;
  const std::map<std::string, std::string> binary = {{"Add", "Add"}, {"AddV2", "Add"},     {"Sub", "Sub"},
                                                     {"Mul", "Mul"}, {"RealDiv", "Div"},   {"Maximum", "Max"},
                                                     {"Minimum", "Min"}};
  for (const auto& [tf_op, type] : binary) t[tf_op] = Elementwise(type, 2);
  t["MatMul"] = MapMatMul;
  const std::map<std::string, std::string> reduce = {
      {"Mean", "ReduceMean"}, {"Sum", "ReduceSum"}, {"Max", "ReduceMax"}, {"Min", "ReduceMin"}, {"Prod", "ReduceProd"},
      {"EuclideanNorm", "ReduceL2"}};
  for (const auto& [tf_op, type] : reduce)
    t[tf_op] = [type = type](const tf::NodeDef& n, TfGraphBuilder& b) { return MapReduce(n, b, type); };
  t["Softmax"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapSoftmax(n, b, "Softmax"); };
  t["LogSoftmax"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapSoftmax(n, b, "LogSoftmax"); };
  t["Cast"] = MapCast;
}

}  // namespace ge::tf_parser
