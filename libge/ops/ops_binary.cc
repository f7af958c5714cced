// Elementwise ops over several inputs with ONNX multidirectional
// broadcasting: arithmetic, bit shifts, comparisons (bool out), logic, variadic
// Max/Min/Sum and Where.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

enum class OutType { kSame, kBool };

// Broadcast shape of all present inputs.
Result<Dims> BroadcastAll(const InferContext& ctx) {
  Dims out;  // a scalar broadcasts with anything
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    GE_ASSIGN_OR_RETURN(out, infer::Broadcast(ctx, out, ctx.input(i).dims));
  }
  return out;
}

std::vector<size_t> AllInputs(const InferContext& ctx) {
  std::vector<size_t> v;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) v.push_back(i);
  return v;
}

// Inputs share one dtype that `accepts` takes; the output is that dtype or bool.
InferFn Elementwise(OutType out, bool (*accepts)(DataType), const char* expected) {
  return [=](InferContext& ctx) -> Status {
    GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, AllInputs(ctx)));
    if (t != DataType::kUndefined && !accepts(t))
      return ctx.Error(std::string("inputs must be ") + expected + ", not " + DataTypeName(t));
    GE_ASSIGN_OR_RETURN(Dims dims, BroadcastAll(ctx));
    infer::SetOutput(ctx, 0, out == OutType::kBool ? DataType::kBool : t, std::move(dims));
    return Status::Ok();
  };
}

bool Numeric(DataType t) { return t != DataType::kBool; }
bool AnyDtype(DataType) { return true; }
bool Unsigned(DataType t) {
  return t == DataType::kUInt8 || t == DataType::kUInt16 || t == DataType::kUInt32 || t == DataType::kUInt64;
}

// Pow's exponent may have another numeric type; the result has the base's.
Status InferPow(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, Numeric, "numeric"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, Numeric, "numeric"));
  GE_ASSIGN_OR_RETURN(Dims dims, BroadcastAll(ctx));
  infer::SetOutput(ctx, 0, ctx.input(0).dtype, std::move(dims));
  return Status::Ok();
}

// PRelu(x, slope): slope broadcasts to x (one way); y has x's shape.
Status InferPRelu(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1}));
  if (t != DataType::kUndefined && !IsFloatingPoint(t))
    return ctx.Error(std::string("inputs must be floating point, not ") + DataTypeName(t));
  const Dims& x = ctx.input(0).dims;
  GE_ASSIGN_OR_RETURN(Dims dims, infer::Broadcast(ctx, x, ctx.input(1).dims));
  if (!infer::IsUnknownRank(x) && !infer::IsUnknownRank(dims) && dims.size() != x.size())
    return ctx.Error("slope " + ctx.input(1).ToString() + " does not broadcast to x " + ctx.input(0).ToString());
  for (size_t i = 0; i < dims.size() && dims.size() == x.size(); ++i)
    if (x[i] >= 0 && dims[i] >= 0 && dims[i] != x[i])
      return ctx.Error("slope " + ctx.input(1).ToString() + " does not broadcast to x " + ctx.input(0).ToString());
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

// Where(cond, x, y): bool condition, x and y share the output's dtype.
Status InferWhere(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, infer::IsBool, "bool"));
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {1, 2}));
  GE_ASSIGN_OR_RETURN(Dims dims, BroadcastAll(ctx));
  infer::SetOutput(ctx, 0, t, std::move(dims));
  return Status::Ok();
}

}  // namespace

void RegisterBinaryOps(OpRegistry& r) {
  // Output 0 has input 0's dtype, so it may overwrite input 0 when the
  // shapes match (the memory pass checks sizes).
  for (const char* type : {"Add", "Sub", "Mul", "Div"})
    r.Register(OpBuilder(type).Inputs(2, 2).Infer(Elementwise(OutType::kSame, Numeric, "numeric")).Inplace());
  r.Register(OpBuilder("Pow").Inputs(2, 2).Infer(InferPow).Inplace());
  // fmod=0: the remainder takes the divisor's sign (Python's %); 1: C's fmod.
  r.Register(OpBuilder("Mod")
                 .Inputs(2, 2)
                 .Defaults({{"fmod", int64_t{0}}})
                 .Infer(Elementwise(OutType::kSame, Numeric, "numeric"))
                 .Inplace());
  // Variadic: the kernel combines into its output input by input. Max and Min
  // may do so over input 0 (even where input 0 also feeds a later input,
  // max(a, a) is a); Sum and Mean would add a changed value there.
  for (const char* type : {"Max", "Min"})
    r.Register(OpBuilder(type).Inputs(1, -1).Infer(Elementwise(OutType::kSame, Numeric, "numeric")).Inplace());
  r.Register(OpBuilder("Sum").Inputs(1, -1).Infer(Elementwise(OutType::kSame, Numeric, "numeric")));
  r.Register(OpBuilder("Mean").Inputs(1, -1).Infer(Elementwise(OutType::kSame, IsFloatingPoint, "floating point")));
  // direction (LEFT or RIGHT) is required; the kernel checks it.
  r.Register(
      OpBuilder("BitShift").Inputs(2, 2).Infer(Elementwise(OutType::kSame, Unsigned, "unsigned integers")).Inplace());
  for (const char* type : {"And", "Or", "Xor"})
    r.Register(OpBuilder(type).Inputs(2, 2).Infer(Elementwise(OutType::kBool, infer::IsBool, "bool")).Inplace());
  // Comparisons write bool over non-bool inputs: not in place.
  r.Register(OpBuilder("Equal").Inputs(2, 2).Infer(Elementwise(OutType::kBool, AnyDtype, "any")));
  for (const char* type : {"Less", "Greater", "LessOrEqual", "GreaterOrEqual"})
    r.Register(OpBuilder(type).Inputs(2, 2).Infer(Elementwise(OutType::kBool, Numeric, "numeric")));
  r.Register(OpBuilder("Where").Inputs(3, 3).Infer(InferWhere));
  r.Register(OpBuilder("PRelu").Inputs(2, 2).Infer(InferPRelu).Inplace());
}

}  // namespace ge
