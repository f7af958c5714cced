// The recurrent ops LSTM, GRU and RNN (ONNX opsets 7-14): inputs X, W, R
// and the optional B, sequence_lens, initial_h (and for LSTM initial_c, P);
// outputs Y, Y_h (and for LSTM Y_c), any of them may be absent. With
// layout 0 X is [seq, batch, input], Y [seq, dirs, batch, hidden] and the
// states [dirs, batch, hidden]; layout 1 (opset 14) puts batch first: X
// [batch, seq, input], Y [batch, seq, dirs, hidden], states [batch, dirs,
// hidden]. Attribute values ge does not know are refused here, so ge-atc
// names the node instead of computing something else.
#include <set>

#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

struct RnnKind {
  int64_t gates;        // rows of W per direction, in units of hidden
  size_t activations;   // activation functions per direction
  int max_inputs;
};
constexpr RnnKind kLstm{4, 3, 8}, kGru{3, 2, 6}, kRnn{1, 1, 6};

// The activation functions of the ONNX spec.
bool KnownActivation(const std::string& name) {
  static const std::set<std::string> kNames = {"Relu",      "Tanh",     "Sigmoid",         "Affine",
                                               "LeakyRelu", "ThresholdedRelu", "ScaledTanh", "HardSigmoid",
                                               "Elu",       "Softsign", "Softplus"};
  return kNames.count(name) != 0;
}

Status CheckAttrs(InferContext& ctx, const RnnKind& kind, int64_t dirs) {
  const Node& n = ctx.node();
  const int64_t layout = n.GetInt("layout", 0);
  if (layout != 0 && layout != 1) return ctx.Error("layout " + std::to_string(layout) + " is not 0 or 1");
  for (const char* flag : {"linear_before_reset", "input_forget"})
    if (n.HasAttr(flag) && n.GetInt(flag, 0) != 0 && n.GetInt(flag, 0) != 1)
      return ctx.Error(std::string(flag) + " " + std::to_string(n.GetInt(flag, 0)) + " is not 0 or 1");
  if (n.HasAttr("clip") && !(n.GetFloat("clip", 0.f) > 0.f))
    return ctx.Error("clip " + std::to_string(n.GetFloat("clip", 0.f)) + " must be positive");
  if (n.HasAttr("activations")) {
    const std::vector<std::string> acts = n.GetStrings("activations");
    if (acts.size() != kind.activations * static_cast<size_t>(dirs))
      return ctx.Error("activations has " + std::to_string(acts.size()) + " names, but " + n.type() + " with " +
                       std::to_string(dirs) + " direction(s) takes " + std::to_string(kind.activations * dirs));
    for (const std::string& a : acts)
      if (!KnownActivation(a)) return ctx.NotSupported("activation '" + a + "' is not an ONNX RNN activation");
  }
  return Status::Ok();
}

// Input i must be [d0, d1, ...] where the known dims are given (-1: any).
Status CheckShape(InferContext& ctx, size_t i, const char* name, const Dims& want) {
  if (!ctx.has_input(i) || ctx.input(i).unknown_rank()) return Status::Ok();
  const TensorDesc& d = ctx.input(i);
  bool ok = static_cast<size_t>(d.rank()) == want.size();
  for (size_t k = 0; ok && k < want.size(); ++k) ok = want[k] < 0 || d.dims[k] < 0 || d.dims[k] == want[k];
  if (!ok) return ctx.Error(std::string(name) + " " + d.ToString() + " must be " + DimsToString(want));
  return Status::Ok();
}

// A known dim of input i, or -1.
int64_t DimOf(const InferContext& ctx, size_t i, size_t k) {
  if (!ctx.has_input(i) || ctx.input(i).unknown_rank() || static_cast<size_t>(ctx.input(i).rank()) <= k)
    return kUnknownDim;
  return ctx.input(i).dims[k];
}

Status InferRnn(InferContext& ctx, const RnnKind& kind) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloatingPoint, "floating point"));
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1, 2, 3, 5, 6, 7}));
  if (ctx.num_inputs() > 4) GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 4, infer::IsIndex, "int32 or int64"));
  const Node& n = ctx.node();
  const std::string direction = n.GetString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return ctx.Error("direction '" + direction + "' is not one of forward, reverse, bidirectional");
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  GE_RETURN_IF_ERROR(CheckAttrs(ctx, kind, dirs));
  const bool batch_first = n.GetInt("layout", 0) == 1;

  // hidden_size from the attribute, else from R [dirs, gates*hidden, hidden].
  int64_t hidden = n.HasAttr("hidden_size") ? n.GetInt("hidden_size", 0) : DimOf(ctx, 2, 2);
  if (n.HasAttr("hidden_size") && hidden <= 0)
    return ctx.Error("hidden_size " + std::to_string(hidden) + " must be positive");
  const TensorDesc& x = ctx.input(0);
  if (!x.unknown_rank() && x.rank() != 3) return ctx.Error("X " + x.ToString() + " must be 3-D");
  const int64_t seq = DimOf(ctx, 0, batch_first ? 1 : 0), batch = DimOf(ctx, 0, batch_first ? 0 : 1);
  const int64_t in = DimOf(ctx, 0, 2);
  const int64_t rows = hidden < 0 ? kUnknownDim : kind.gates * hidden;
  GE_RETURN_IF_ERROR(CheckShape(ctx, 1, "W", {dirs, rows, in}));
  GE_RETURN_IF_ERROR(CheckShape(ctx, 2, "R", {dirs, rows, hidden}));
  GE_RETURN_IF_ERROR(CheckShape(ctx, 3, "B", {dirs, rows < 0 ? kUnknownDim : 2 * rows}));
  GE_RETURN_IF_ERROR(CheckShape(ctx, 4, "sequence_lens", {batch}));
  const Dims state = batch_first ? Dims{batch, dirs, hidden} : Dims{dirs, batch, hidden};
  GE_RETURN_IF_ERROR(CheckShape(ctx, 5, "initial_h", state));
  if (kind.gates == 4) {
    GE_RETURN_IF_ERROR(CheckShape(ctx, 6, "initial_c", state));
    GE_RETURN_IF_ERROR(CheckShape(ctx, 7, "P", {dirs, hidden < 0 ? kUnknownDim : 3 * hidden}));
  }
  if (t == DataType::kUndefined) t = x.dtype;
  infer::SetOutput(ctx, 0, t, batch_first ? Dims{batch, seq, dirs, hidden} : Dims{seq, dirs, batch, hidden});
  for (size_t j = 1; j < ctx.num_outputs(); ++j) infer::SetOutput(ctx, j, t, state);
  return Status::Ok();
}

}  // namespace

void RegisterRnnOps(OpRegistry& r) {
  const std::map<std::string, AttrValue> common = {{"direction", std::string("forward")}, {"layout", int64_t{0}}};
  auto with = [&](std::map<std::string, AttrValue> extra) {
    extra.insert(common.begin(), common.end());
    return extra;
  };
  r.Register(OpBuilder("LSTM").Inputs(3, kLstm.max_inputs).Outputs(1, 3)
                 .Defaults(with({{"input_forget", int64_t{0}}}))
                 .Infer([](InferContext& c) { return InferRnn(c, kLstm); }));
  r.Register(OpBuilder("GRU").Inputs(3, kGru.max_inputs).Outputs(1, 2)
                 .Defaults(with({{"linear_before_reset", int64_t{0}}}))
                 .Infer([](InferContext& c) { return InferRnn(c, kGru); }));
  r.Register(OpBuilder("RNN").Inputs(3, kRnn.max_inputs).Outputs(1, 2).Defaults(common)
                 .Infer([](InferContext& c) { return InferRnn(c, kRnn); }));
}

}  // namespace ge
