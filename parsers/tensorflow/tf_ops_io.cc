// Graph inputs, constants and the ops that only pass a value on:
//   Placeholder → Data (attr "index"; shape from attr "shape", or --input_shape)
//   Const       → Const (tensor_content or *_val, TF's fill rule)
//   Identity, StopGradient, Snapshot, PreventGradient, CheckNumerics,
//   PlaceholderWithDefault → the input itself (an IR Identity only when the
//               node has control inputs to keep). CheckNumerics does not
//               check (inference graphs keep it only as a debugging aid);
//               PlaceholderWithDefault takes its default, as a frozen graph
//               run without feeding it does
//   NoOp        → nothing (its control inputs pass on to whoever waits for it)
#include "tf_attrs.h"
#include "tf_op_mappers.h"
#include "tf_tensor.h"

namespace ge::tf_parser {

namespace {

Status MapPlaceholder(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(DataType dtype, DtypeAttr(n, "dtype"));
  std::vector<int64_t> dims = {kUnknownRank};
  if (const tf::AttrValue* s = FindAttr(n, "shape")) {
    if (s->value_case() != tf::AttrValue::kShape) return NodeError(n, "attribute 'shape' is not a shape");
    GE_ASSIGN_OR_RETURN(dims, DimsFromTfShape(s->shape(), "node " + NodeLabel(n) + ": attribute 'shape'"));
  }
  auto given = b.options().input_shapes.find(n.name());
  if (given != b.options().input_shapes.end()) {
    const bool known_rank = !(dims.size() == 1 && dims[0] == kUnknownRank);
    if (known_rank && given->second.size() != dims.size())
      return InvalidArgument("--input_shape: '" + n.name() + "' is given " + std::to_string(given->second.size()) +
                             " dims, but Placeholder " + n.name() + " has shape " + DimsToString(dims));
    dims = given->second;
  }
  GE_ASSIGN_OR_RETURN(Node* d, b.Add(n, op::kData, {}, {{"index", b.TakeInputIndex()}}));
  d->output_desc(0) = TensorDesc(dtype, dims);
  b.Define(n, 0, TfValue{Endpoint{d, 0}, false});
  return Status::Ok();
}

Status MapConst(const tf::NodeDef& n, TfGraphBuilder& b) {
  const tf::AttrValue* v = FindAttr(n, "value");
  if (!v || v->value_case() != tf::AttrValue::kTensor) return NodeError(n, "needs a tensor attribute 'value'");
  GE_ASSIGN_OR_RETURN(Tensor value, TensorFromTf(v->tensor(), "node " + NodeLabel(n)));
  b.Define(n, 0, TfValue{b.AddConst(n, "", std::move(value)), false});
  return Status::Ok();
}

Status MapIdentity(const tf::NodeDef& n, TfGraphBuilder& b) {
  if (b.NumDataInputs(n) != 1) return NodeError(n, "takes one data input, has " + std::to_string(b.NumDataInputs(n)));
  GE_ASSIGN_OR_RETURN(TfValue x, b.Input(n, 0));
  if (!b.HasControlInputs(n)) {
    b.Define(n, 0, x);
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(Node* id, b.Add(n, "Identity", {x.ep}));
  b.Define(n, 0, TfValue{Endpoint{id, 0}, x.nchw});
  return Status::Ok();
}

Status MapNoOp(const tf::NodeDef&, TfGraphBuilder&) { return Status::Ok(); }

}  // namespace

void AddIoMappers(OpMapperTable& t) {
  t["Placeholder"] = MapPlaceholder;
  t["Const"] = MapConst;
  for (const char* op : {"Identity", "StopGradient", "Snapshot", "PreventGradient", "CheckNumerics",
                         "PlaceholderWithDefault"})
    t[op] = MapIdentity;
  t["NoOp"] = MapNoOp;
}

}  // namespace ge::tf_parser
