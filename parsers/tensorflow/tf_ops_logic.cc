// Comparisons, logic, selection and the bool and index reductions.
//   Equal, Less, LessEqual, Greater, GreaterEqual → Equal, Less, LessOrEqual, Greater, GreaterOrEqual
//   NotEqual                  → Not(Equal)
//   LogicalAnd, LogicalOr, LogicalNot → And, Or, Not
//   SelectV2                  → Where (numpy broadcasting)
//   Select                    → Where; TF 1's vector condition over the rows of
//                               higher-rank values is reshaped to [N, 1, ...]
//   All, Any                  → ReduceMin, ReduceMax of bool (constant axes, keep_dims)
//   ArgMax, ArgMin            → ArgMax, ArgMin (keepdims=0) over the constant
//                               `dimension`, + Cast when output_type is int32
// Equal and NotEqual's incompatible_shape_error is not read: shapes that do
// not broadcast fail conversion either way.
#include "tf_attrs.h"
#include "tf_op_mappers.h"
#include "tf_tensor.h"

namespace ge::tf_parser {

namespace {

// TF 1's Select: the condition has the values' shape, or is a vector that
// picks whole rows (along dim 0) of higher-rank values.
Status MapSelect(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> ins, DataInputs(n, b, 3));
  const int64_t cr = b.LogicalRank(ins[0]), vr = b.LogicalRank(ins[1]);
  if (cr < 0 || vr < 0) return NodeUnsupported(n, "Select of an input of unknown rank is not supported");
  if (cr == vr) return MapElementwise(n, b, "Where", 3);
  if (cr != 1)
    return NodeError(n, "condition " + b.Desc(ins[0].ep).ToString() +
                            " must have the values' shape or be a vector over their first dimension");
  GE_ASSIGN_OR_RETURN(Endpoint c, b.Logical(ins[0]));
  std::vector<int64_t> rows(static_cast<size_t>(vr), 1);
  rows[0] = -1;
  GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, "Reshape", {c, b.AddInt64s(n, "rows_shape", rows)}, {}, "rows"));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, "Where", {TfValue{Endpoint{r, 0}, false}, ins[1], ins[2]}));
  b.Define(n, 0, y);
  return Status::Ok();
}

Status MapBoolReduce(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  const DataType dt = b.Desc(x.ep).dtype;
  if (dt != DataType::kBool) return NodeError(n, std::string("input must be bool, not ") + DataTypeName(dt));
  return MapReduce(n, b, type);
}

Status MapArgReduce(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type) {
  GE_ASSIGN_OR_RETURN(int tf_out, AttrType(n, "output_type", tf::DT_INT64));
  const DataType out = DataTypeFromTf(tf_out);
  if (out != DataType::kInt64 && out != DataType::kInt32)
    return NodeUnsupported(n, "output_type " + TfDataTypeName(tf_out) + " is not supported (int32, int64)");
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(int64_t axis, ScalarInt(n, b, 1, "dimension"));
  const int64_t rank = b.LogicalRank(x);
  if (rank < 0) return NodeUnsupported(n, "an input of unknown rank is not supported");
  if (axis < -rank || axis >= rank)
    return NodeError(n, "dimension " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  GE_ASSIGN_OR_RETURN(Endpoint ex, b.Logical(x));
  const bool cast = out == DataType::kInt32;
  GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, type, {ex}, {{"axis", axis}, {"keepdims", int64_t{0}}}, cast ? "i64" : ""));
  Endpoint y{r, 0};
  if (cast) {
    GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "Cast", {y}, {{"to", OnnxElemType(out)}}));
    y = Endpoint{c, 0};
  }
  b.Define(n, 0, TfValue{y, false});
  return Status::Ok();
}

}  // namespace

void AddLogicMappers(OpMapperTable& t) {
  const std::map<std::string, std::string> compare = {{"Equal", "Equal"},
                                                      {"Less", "Less"},
                                                      {"LessEqual", "LessOrEqual"},
                                                      {"Greater", "Greater"},
                                                      {"GreaterEqual", "GreaterOrEqual"},
                                                      {"LogicalAnd", "And"},
                                                      {"LogicalOr", "Or"}};
  for (const auto& [tf_op, type] : compare) t[tf_op] = Elementwise(type, 2);
  t["NotEqual"] = Composed("Equal", "equal", "Not", 2);
  t["LogicalNot"] = Elementwise("Not", 1);
  t["SelectV2"] = Elementwise("Where", 3);
  t["Select"] = MapSelect;
  t["All"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapBoolReduce(n, b, "ReduceMin"); };
  t["Any"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapBoolReduce(n, b, "ReduceMax"); };
  t["ArgMax"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapArgReduce(n, b, "ArgMax"); };
  t["ArgMin"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapArgReduce(n, b, "ArgMin"); };
}

}  // namespace ge::tf_parser
