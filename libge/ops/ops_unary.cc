// One-input elementwise ops: the output has the input's shape (and dtype,
// except Cast). They may run in place over their input; Identity's output
// may simply be its input.
#include "ge_base/onnx_dtype.h"
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::CheckDtype;

bool AnyDtype(DataType) { return true; }
bool NotBool(DataType t) { return t != DataType::kBool; }

// Same shape and dtype; `accepts` says which input dtypes make sense.
InferFn SameAsInput(bool (*accepts)(DataType), const char* expected) {
  return [accepts, expected](InferContext& ctx) -> Status {
    GE_RETURN_IF_ERROR(CheckDtype(ctx, 0, accepts, expected));
    infer::SetOutputLike(ctx, 0, 0);
    return Status::Ok();
  };
}

void RegisterElementwise(OpRegistry& r, const char* type, bool (*accepts)(DataType), const char* expected,
                         std::map<std::string, AttrValue> defaults = {}) {
  r.Register(OpBuilder(type).Inputs(1, 1).Defaults(std::move(defaults)).Infer(SameAsInput(accepts, expected)).Inplace());
}

// Clip: bounds are attributes before opset 11, optional scalar inputs 1 and 2 after.
Status InferClip(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckDtype(ctx, 0, NotBool, "numeric"));
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1, 2}));
  for (size_t i = 1; i <= 2; ++i) {
    if (!ctx.has_input(i)) continue;
    const int64_t n = ctx.input(i).NumElements();
    if (n > 1)
      return ctx.Error(std::string(i == 1 ? "min" : "max") + " must be a scalar, but input " + std::to_string(i) +
                       " has " + std::to_string(n) + " elements");
  }
  infer::SetOutput(ctx, 0, t, ctx.input(0).dims);
  return Status::Ok();
}

Status InferCast(InferContext& ctx) {
  if (!ctx.node().HasAttr("to")) return ctx.Error("needs attribute 'to' (the target ONNX element type)");
  const int64_t to = ctx.node().GetInt("to", 0);
  const DataType t = DataTypeFromOnnx(to);
  if (t == DataType::kUndefined)
    return ctx.NotSupported("casting to ONNX element type " + std::to_string(to) +
                            " is not supported (ge has no such dtype)");
  infer::SetOutput(ctx, 0, t, ctx.input(0).dims);
  return Status::Ok();
}

// Dropout, for inference: output 0 is the input, output 1 the mask (bool).
// Training mode is refused (a random stream no framework shares).
Status InferDropout(InferContext& ctx) {
  if (ctx.has_input(2)) {
    const Tensor* t = ctx.input_value(2);
    if (!t || t->ToDouble().empty() || t->ToDouble()[0] != 0)
      return ctx.NotSupported("training mode is not supported: ge runs inference only "
                              "(training_mode, input 2, must be a constant false)");
  }
  infer::SetOutputLike(ctx, 0, 0);
  if (ctx.num_outputs() > 1) infer::SetOutput(ctx, 1, DataType::kBool, ctx.input(0).dims);
  return Status::Ok();
}

// IsNaN, IsInf: a floating point input, a bool output of its shape.
Status InferFloatTest(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckDtype(ctx, 0, IsFloatingPoint, "floating point"));
  infer::SetOutput(ctx, 0, DataType::kBool, ctx.input(0).dims);
  return Status::Ok();
}

// CastLike (opset 15): Cast to the dtype of input 1, whose values are unused.
Status InferCastLike(InferContext& ctx) {
  infer::SetOutput(ctx, 0, ctx.input(1).dtype, ctx.input(0).dims);
  return Status::Ok();
}

}  // namespace

void RegisterUnaryOps(OpRegistry& r) {
  const char* kFloat = "floating point";
  RegisterElementwise(r, "Relu", NotBool, "numeric");
  RegisterElementwise(r, "LeakyRelu", IsFloatingPoint, kFloat, {{"alpha", 0.01f}});
  RegisterElementwise(r, "Sigmoid", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "HardSigmoid", IsFloatingPoint, kFloat, {{"alpha", 0.2f}, {"beta", 0.5f}});
  RegisterElementwise(r, "Tanh", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Erf", NotBool, "numeric");
  RegisterElementwise(r, "Sqrt", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Exp", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Log", IsFloatingPoint, kFloat);
  // ge's own (TensorFlow's Expm1, Log1p, Erfc): precise where the ONNX
  // compositions Exp - 1, Log(1 + x), 1 - Erf lose digits.
  RegisterElementwise(r, "Expm1", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Log1p", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Erfc", IsFloatingPoint, kFloat);
  // ge's own: x * Sigmoid(x) (SiLU), what fusion pass silu makes of the pair.
  RegisterElementwise(r, "Swish", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Neg", NotBool, "numeric");
  RegisterElementwise(r, "Abs", NotBool, "numeric");
  RegisterElementwise(r, "Reciprocal", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Floor", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Ceil", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Not", infer::IsBool, "bool");
  // Round halves to even, as ONNX and TensorFlow do.
  RegisterElementwise(r, "Round", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Sign", NotBool, "numeric");
  RegisterElementwise(r, "Elu", IsFloatingPoint, kFloat, {{"alpha", 1.0f}});
  // ONNX's defaults are SELU's constants rounded to float.
  RegisterElementwise(r, "Selu", IsFloatingPoint, kFloat,
                      {{"alpha", 1.67326319217681884765625f}, {"gamma", 1.05070102214813232421875f}});
  RegisterElementwise(r, "Softplus", IsFloatingPoint, kFloat);
  RegisterElementwise(r, "Softsign", IsFloatingPoint, kFloat);
  for (const char* type : {"Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
                           "HardSwish", "Mish"})
    RegisterElementwise(r, type, IsFloatingPoint, kFloat);
  RegisterElementwise(r, "ThresholdedRelu", IsFloatingPoint, kFloat, {{"alpha", 1.0f}});
  RegisterElementwise(r, "Shrink", IsFloatingPoint, kFloat, {{"lambd", 0.5f}, {"bias", 0.0f}});
  RegisterElementwise(r, "Celu", IsFloatingPoint, kFloat, {{"alpha", 1.0f}});
  r.Register(OpBuilder("IsNaN").Inputs(1, 1).Infer(InferFloatTest));
  r.Register(OpBuilder("IsInf").Inputs(1, 1).Defaults({{"detect_negative", int64_t{1}}, {"detect_positive", int64_t{1}}})
                 .Infer(InferFloatTest));
  // Our fused GELU (from the Erf/Tanh patterns, or ONNX opset 20's Gelu).
  RegisterElementwise(r, "Gelu", IsFloatingPoint, kFloat, {{"approximate", std::string("none")}});

  r.Register(OpBuilder("Clip").Inputs(1, 3).Infer(InferClip).Inplace());
  // Cast changes the element size, so it is not listed as in-place.
  r.Register(OpBuilder("Cast").Inputs(1, 1).Defaults({{"saturate", int64_t{1}}}).Infer(InferCast));
  r.Register(OpBuilder("CastLike").Inputs(2, 2).Defaults({{"saturate", int64_t{1}}}).Infer(InferCastLike));
  r.Register(OpBuilder("Dropout").Inputs(1, 3).Outputs(1, 2).Defaults({{"ratio", 0.5f}}).Infer(InferDropout));
  r.Register(OpBuilder("Identity").Inputs(1, 1).Infer(SameAsInput(AnyDtype, "any")).Reference());
}

}  // namespace ge
