// The mapper table and the helpers the op families share.
#include "tf_op_mappers.h"

#include "tf_attrs.h"
#include "tf_control_flow.h"
#include "tf_tensor.h"

namespace ge::tf_parser {

const OpMapperTable& OpMappers() {
  static const OpMapperTable table = [] {
    OpMapperTable t;
    AddIoMappers(t);
    AddNnMappers(t);
    AddMathMappers(t);
    AddArrayMappers(t);
    AddStridedSliceMapper(t);
    AddArithMappers(t);
    AddLogicMappers(t);
    AddResizeMappers(t);
    AddSpaceMappers(t);
    AddBatchMatMulMappers(t);
    AddIndexMappers(t);
    AddShapeMappers(t);
    AddControlFlowMappers(t);
    AddScatterMappers(t);
    AddDetectionMappers(t);
    AddVolumeMappers(t);
    AddLinalgMappers(t);
    return t;
  }();
  return table;
}

Result<bool> IsNhwc(const tf::NodeDef& n) {
  GE_ASSIGN_OR_RETURN(std::string f, AttrString(n, "data_format", std::string("NHWC")));
  if (f == "NHWC") return true;
  if (f == "NCHW") return false;
  return NodeUnsupported(n, "data_format '" + f + "' is not supported (NHWC or NCHW)");
}

Result<std::vector<int64_t>> ConstInts(const tf::NodeDef& n, TfGraphBuilder& b, int input, const std::string& what) {
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, input));
  const Tensor* t = b.ConstValue(v);
  if (!t) return NodeUnsupported(n, what + " (input " + std::to_string(input) + ") must be a constant");
  const DataType dt = t->desc().dtype;
  if (dt != DataType::kInt32 && dt != DataType::kInt64)
    return NodeError(n, what + " (input " + std::to_string(input) + ") must be int32 or int64, not " +
                            DataTypeName(dt));
  return t->ToInt64();
}

Result<int64_t> ScalarInt(const tf::NodeDef& n, TfGraphBuilder& b, int input, const std::string& what) {
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> v, ConstInts(n, b, input, what));
  if (v.size() != 1) return NodeError(n, what + " must hold one value, has " + std::to_string(v.size()));
  return v[0];
}

Result<Endpoint> WindowInput(const tf::NodeDef& n, TfGraphBuilder& b, bool nhwc) {
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  if (b.LogicalRank(x) != 4)
    return NodeError(n, "input must be 4-D, but is " + b.Desc(x.ep).ToString());
  if (nhwc) return b.Nchw(x);
  return b.Logical(x);
}

Result<int64_t> NormalizeAxis(const tf::NodeDef& n, int64_t axis, int64_t rank) {
  if (rank < 0) return NodeUnsupported(n, "an input of unknown rank is not supported");
  if (axis < -rank || axis >= rank)
    return NodeError(n, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

Result<Endpoint> Int64Input(const tf::NodeDef& n, TfGraphBuilder& b, int input, const std::string& what) {
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, input));
  if (const Tensor* c = b.ConstValue(v)) {
    if (c->desc().dtype != DataType::kInt32 && c->desc().dtype != DataType::kInt64)
      return NodeError(n, what + " must be int32 or int64");
    return b.AddInt64s(n, what, c->ToInt64());
  }
  GE_ASSIGN_OR_RETURN(Endpoint e, b.Logical(v));
  if (b.Desc(e).dtype == DataType::kInt64) return e;
  GE_ASSIGN_OR_RETURN(Node* cast, b.Add(n, "Cast", {e}, {{"to", OnnxElemType(DataType::kInt64)}}, what + "_i64"));
  return Endpoint{cast, 0};
}

int64_t OnnxElemType(DataType t) {
  switch (t) {
    case DataType::kFloat32: return 1;
    case DataType::kUInt8: return 2;
    case DataType::kInt8: return 3;
    case DataType::kUInt16: return 4;
    case DataType::kInt16: return 5;
    case DataType::kInt32: return 6;
    case DataType::kInt64: return 7;
    case DataType::kBool: return 9;
    case DataType::kFloat16: return 10;
    case DataType::kFloat64: return 11;
    case DataType::kUInt32: return 12;
    case DataType::kUInt64: return 13;
    case DataType::kBFloat16: return 16;
    default: return -1;
  }
}

Result<DataType> DtypeAttr(const tf::NodeDef& n, const std::string& attr) {
  GE_ASSIGN_OR_RETURN(int t, AttrType(n, attr));
  const DataType dt = DataTypeFromTf(t);
  if (dt == DataType::kUndefined)
    return NodeUnsupported(n, "attribute '" + attr + "' is " + TfDataTypeName(t) + ", which ge cannot hold");
  return dt;
}

Result<Endpoint> AddScalar(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& suffix, DataType dt,
                           double value) {
  auto make = [&](auto typed) {
    using T = decltype(typed);
    return b.AddConst(n, suffix, Tensor::FromVector(dt, {}, std::vector<T>{static_cast<T>(value)}));
  };
  switch (dt) {
    case DataType::kFloat32: return make(float{});
    case DataType::kFloat64: return make(double{});
    case DataType::kInt8: return make(int8_t{});
    case DataType::kInt16: return make(int16_t{});
    case DataType::kInt32: return make(int32_t{});
    case DataType::kInt64: return make(int64_t{});
    case DataType::kUInt8: return make(uint8_t{});
    case DataType::kUInt16: return make(uint16_t{});
    case DataType::kBool: return make(uint8_t{});  // one byte, 0 or 1
    default: return NodeUnsupported(n, std::string("values of ") + DataTypeName(dt) + " are not supported here");
  }
}

Result<Endpoint> CastTo(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint e, DataType dt, const std::string& suffix) {
  if (b.Desc(e).dtype == dt) return e;
  GE_ASSIGN_OR_RETURN(Node* c, b.Add(n, "Cast", {e}, {{"to", OnnxElemType(dt)}}, suffix));
  return Endpoint{c, 0};
}

}  // namespace ge::tf_parser
