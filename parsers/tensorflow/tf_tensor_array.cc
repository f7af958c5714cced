// TensorArrays as tf.nn.dynamic_rnn freezes them (tf_control_flow.h): the
// handle and flow values are placeholders whose TaState says what the array
// holds, and the ops on them become plain tensor ops:
//   TensorArrayV3            → nothing (a new, empty array)
//   TensorArrayScatterV3     → the array's rows are `value` (indices 0..n-1)
//   TensorArrayReadV3        → Gather(rows, index)
//   TensorArrayGatherV3      → Gather(rows, indices)
//   TensorArraySizeV3        → the size it was made with (or Shape(rows)[0])
//   TensorArrayWriteV3       → in a loop body, on the flow the loop carries:
//                              this step's row (a Loop scan output)
// Anything else (a write outside a loop, a read of an array written in the
// same loop, a scatter at other indices) is refused naming the node.
#include "tf_attrs.h"
#include "tf_control_flow.h"

namespace ge::tf_parser {

namespace {

Result<TaState> TaInput(const tf::NodeDef& n, TfGraphBuilder& b, int i) {
  GE_ASSIGN_OR_RETURN(TfValue v, b.Input(n, i));
  const TaState* s = b.scope() ? b.scope()->FindTa(v.ep) : nullptr;
  if (!s)
    return NodeUnsupported(n, "input " + std::to_string(i) + " '" + n.input(i) +
                                  "' is not a TensorArray ge can follow (one made by TensorArrayV3 in this graph)");
  return *s;
}

Result<TaState> Rows(const tf::NodeDef& n, TfGraphBuilder& b, int flow) {
  GE_ASSIGN_OR_RETURN(TaState s, TaInput(n, b, flow));
  if (s.kind != TaKind::kContent)
    return NodeUnsupported(n, "reads TensorArray " + s.origin +
                                  " before its rows are known; ge takes arrays scattered before a loop, or written in "
                                  "a loop and read after it");
  return s;
}

// indices 0, 1, ..., n-1: a Range from 0 by 1, or such a constant.
bool IsIota(const TfGraphBuilder& b, Endpoint e) {
  auto const_is = [&](Endpoint x, int64_t v) {
    const Tensor* t = b.ConstValue(x);
    if (!t) return false;
    const auto vals = t->ToInt64();
    return vals.size() == 1 && vals[0] == v;
  };
  if (const Tensor* t = b.ConstValue(e)) {
    const auto vals = t->ToInt64();
    for (size_t i = 0; i < vals.size(); ++i)
      if (vals[i] != static_cast<int64_t>(i)) return false;
    return true;
  }
  const Node* r = e.node;
  return r && r->type() == "Range" && r->num_inputs() == 3 && const_is(r->InputSource(0), 0) &&
         const_is(r->InputSource(2), 1);
}

Status MapTensorArray(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TfValue size, b.Input(n, 0));
  GE_ASSIGN_OR_RETURN(Endpoint s, b.Logical(size));
  b.Define(n, 0, AddTaValue(n, b, TaState{TaKind::kHandle, {}, {}, n.name(), s}, "handle"));
  b.Define(n, 1, AddTaValue(n, b, TaState{TaKind::kEmpty, {}, {}, n.name(), s}, "flow"));
  return Status::Ok();
}

// TensorArrayScatterV3(handle, indices, value, flow_in) -> flow_out
Status MapScatter(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TaState flow, TaInput(n, b, 3));
  if (flow.kind != TaKind::kEmpty)
    return NodeUnsupported(n, "scatters into TensorArray " + flow.origin + ", which is not new");
  GE_ASSIGN_OR_RETURN(TfValue indices, b.Input(n, 1));
  if (!IsIota(b, indices.ep))
    return NodeUnsupported(n, "scatters at indices other than 0, 1, ..., n-1 (a Range from 0 by 1)");
  GE_ASSIGN_OR_RETURN(TfValue value, b.Input(n, 2));
  GE_ASSIGN_OR_RETURN(Endpoint rows, b.Logical(value));
  b.Define(n, 0, AddTaValue(n, b, TaState{TaKind::kContent, rows, {}, flow.origin, flow.size}, "flow"));
  return Status::Ok();
}

// TensorArrayReadV3(handle, index, flow) and TensorArrayGatherV3(handle, indices, flow)
Status MapRead(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TaState s, Rows(n, b, 2));
  GE_ASSIGN_OR_RETURN(TfValue index, b.Input(n, 1));
  GE_ASSIGN_OR_RETURN(Endpoint i, b.Logical(index));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Gather", {s.content, i}, {{"axis", int64_t{0}}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

// TensorArraySizeV3(handle, flow) -> int32: the size it was made with, or
// the number of rows.
Status MapSize(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TaState s, Rows(n, b, 1));
  if (s.size.valid() && s.size.node->owner() == &b.graph() && b.Desc(s.size).dtype == DataType::kInt32) {
    b.Define(n, 0, TfValue{s.size, false});
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(Node* shape, b.Add(n, "Shape", {s.content}, {}, "shape"));
  Endpoint zero = b.AddInt64s(n, "axis0", {0}, true);
  GE_ASSIGN_OR_RETURN(Node* rows, b.Add(n, "Gather", {Endpoint{shape, 0}, zero}, {{"axis", int64_t{0}}}, "rows"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Cast", {Endpoint{rows, 0}}, {{"to", OnnxElemType(DataType::kInt32)}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, false});
  return Status::Ok();
}

// TensorArrayWriteV3(handle, index, value, flow_in) -> flow_out
Status MapWrite(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(TaState flow, TaInput(n, b, 3));
  if (flow.kind != TaKind::kAccumulator)
    return NodeUnsupported(n, "writes TensorArray " + flow.origin +
                                  " outside the pattern ge takes: one write per iteration of the loop that carries it");
  GE_ASSIGN_OR_RETURN(TfValue index, b.Input(n, 1));
  GE_ASSIGN_OR_RETURN(TfValue value, b.Input(n, 2));
  GE_ASSIGN_OR_RETURN(Endpoint row, b.Logical(value));
  GE_ASSIGN_OR_RETURN(Endpoint i, b.Logical(index));
  b.Define(n, 0, AddTaValue(n, b, TaState{TaKind::kWritten, row, i, n.name()}, "flow"));
  return Status::Ok();
}

}  // namespace

void AddTensorArrayMappers(OpMapperTable& t) {
  t["TensorArrayV3"] = MapTensorArray;
  t["TensorArrayScatterV3"] = MapScatter;
  t["TensorArrayReadV3"] = MapRead;
  t["TensorArrayGatherV3"] = MapRead;
  t["TensorArraySizeV3"] = MapSize;
  t["TensorArrayWriteV3"] = MapWrite;
}

}  // namespace ge::tf_parser
