// Elementwise arithmetic beyond the basics of tf_ops_math.cc: rounding,
// more activations, squares and roots, powers, sums of many, and TF's
// modulo and flooring division. All keep a NCHW-held operand NCHW-held.
//   Erf, Floor, Ceil, Round, Sign, Reciprocal, Elu, Selu, Softplus, Softsign → the op of the same name
//   Inv                       → Reciprocal
//   Rsqrt                     → Reciprocal(Sqrt(x)) (constant folding computes both for constant inputs)
//   Square                    → Mul(x, x)
//   LeakyRelu                 → LeakyRelu(alpha, TF's default 0.2)
//   SquaredDifference         → Mul(d, d), d = Sub(x, y)
//   Pow                       → Pow (a constant negative exponent of an integer base is refused)
//   AddN                      → Sum
//   FloorMod                  → Mod(fmod=0): the remainder has the divisor's sign
//   Mod, TruncateMod          → Mod(fmod=1): the remainder has the dividend's sign
//   FloorDiv                  → float: Floor(Div(x, y)); integer: Div(x - FloorMod(x, y), y), exact
//   ClipByValue               → Clip (one-value bounds), else Max(Min(x, hi), lo) broadcasting
//   Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh → the op of the same name
//   Rint                      → Round (both round halves to even)
//   IsNan, IsInf              → IsNaN, IsInf; IsFinite → Not(Or(IsNaN(x), IsInf(x)))
//   DivNoNan, MulNoNan        → Where(Equal(y, 0), 0, Div(x, y) / Mul(x, y))
//   Xlogy, Xdivy              → Where(Equal(x, 0), 0, Mul(x, Log(y)) / Div(x, y))
//   Expm1, Log1p, Erfc        → ge's own ops of the same name (std::expm1, log1p, erfc: exact near 0
//                               and in the tail, where Exp - 1, Log(1 + x), 1 - Erf are not)
//   FakeQuantWithMinMaxArgs/Vars → TF's nudged range (constant min/max), then
//                               Floor((Clip(x) - nmin) * (1/scale) + 0.5) * scale + nmin, in TF's order
#include <cmath>

#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

Status MapSquare(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> x, DataInputs(n, b, 1));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, "Mul", {x[0], x[0]}));
  b.Define(n, 0, y);
  return Status::Ok();
}

Status MapLeakyRelu(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(float alpha, AttrFloat(n, "alpha", 0.2f));
  return MapElementwise(n, b, "LeakyRelu", 1, {{"alpha", alpha}});
}

// TF fails at run time on an integer base to a negative integer power; a
// constant such exponent is refused here (a computed one is not seen).
Status MapPow(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> xy, DataInputs(n, b, 2));
  const Tensor* e = b.ConstValue(xy[1]);
  if (!IsFloatingPoint(b.Desc(xy[0].ep).dtype) && e && !IsFloatingPoint(e->desc().dtype))
    for (double v : e->ToDouble())
      if (v < 0)
        return NodeUnsupported(n, "an integer base to a negative integer power is not supported (TF refuses it)");
  return MapElementwise(n, b, "Pow", 2);
}

// TF's FloorDiv rounds the quotient towards -inf for every dtype.
Status MapFloorDiv(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> xy, DataInputs(n, b, 2));
  const DataType dt = b.Desc(xy[0].ep).dtype;
  if (IsFloatingPoint(dt)) return Composed("Div", "quotient", "Floor", 2)(n, b);
  if (dt != DataType::kInt32 && dt != DataType::kInt64)
    return NodeUnsupported(n, std::string("FloorDiv of ") + DataTypeName(dt) + " is not supported (float, i32, i64)");
  // x - FloorMod(x, y) is a multiple of y, so the truncating Div is exact.
  GE_ASSIGN_OR_RETURN(TfValue r, AddElementwise(n, b, "Mod", xy, {{"fmod", int64_t{0}}}, "remainder"));
  GE_ASSIGN_OR_RETURN(TfValue m, AddElementwise(n, b, "Sub", {xy[0], r}, {}, "multiple"));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, "Div", {m, xy[1]}));
  b.Define(n, 0, y);
  return Status::Ok();
}

// Clip takes scalar bounds only (and fuses into a conv); TF's broadcast
// bounds take the elementwise form.
Status MapClipByValue(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, 3));
  const Tensor* lo = b.ConstValue(in[1]);
  const Tensor* hi = b.ConstValue(in[2]);
  if (lo && hi && lo->desc().NumElements() == 1 && hi->desc().NumElements() == 1) {
    Endpoint lo1 = b.AddConst(n, "min", Tensor(TensorDesc(lo->desc().dtype, {}), lo->data(), lo->size()));
    Endpoint hi1 = b.AddConst(n, "max", Tensor(TensorDesc(hi->desc().dtype, {}), hi->data(), hi->size()));
    GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Clip", {in[0].ep, lo1, hi1}));
    b.Define(n, 0, TfValue{Endpoint{y, 0}, in[0].nchw});
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(TfValue upper, AddElementwise(n, b, "Min", {in[0], in[2]}, {}, "upper"));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, "Max", {upper, in[1]}));
  b.Define(n, 0, y);
  return Status::Ok();
}

Status MapIsFinite(const tf::NodeDef& n, TfGraphBuilder& b) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> x, DataInputs(n, b, 1));
  GE_ASSIGN_OR_RETURN(TfValue nan, AddElementwise(n, b, "IsNaN", x, {}, "is_nan"));
  GE_ASSIGN_OR_RETURN(TfValue inf, AddElementwise(n, b, "IsInf", x, {}, "is_inf"));
  GE_ASSIGN_OR_RETURN(TfValue bad, AddElementwise(n, b, "Or", {nan, inf}, {}, "not_finite"));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, "Not", {bad}));
  b.Define(n, 0, y);
  return Status::Ok();
}

// TF's DivNoNan and MulNoNan give 0 wherever y is 0, whatever x is.
Status MapNoNan(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> xy, DataInputs(n, b, 2));
  const DataType dt = b.Desc(xy[1].ep).dtype;
  if (!IsFloatingPoint(dt)) return NodeUnsupported(n, std::string("y of ") + DataTypeName(dt) + " is not supported (float)");
  GE_ASSIGN_OR_RETURN(Endpoint zero, AddScalar(n, b, "zero", dt, 0.0));
  GE_ASSIGN_OR_RETURN(TfValue is_zero, AddElementwise(n, b, "Equal", {xy[1], TfValue{zero, false}}, {}, "y_is_zero"));
  GE_ASSIGN_OR_RETURN(TfValue value, AddElementwise(n, b, type, xy, {}, "value"));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, "Where", {is_zero, TfValue{zero, false}, value}));
  b.Define(n, 0, y);
  return Status::Ok();
}

// Xlogy, Xdivy: 0 where x is 0 (whatever y is), else x * log(y) / x / y.
Status MapXOp(const tf::NodeDef& n, TfGraphBuilder& b, bool log) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> xy, DataInputs(n, b, 2));
  const DataType dt = b.Desc(xy[0].ep).dtype;
  if (!IsFloatingPoint(dt)) return NodeUnsupported(n, std::string("x of ") + DataTypeName(dt) + " is not supported (float)");
  GE_ASSIGN_OR_RETURN(Endpoint zero, AddScalar(n, b, "zero", dt, 0.0));
  GE_ASSIGN_OR_RETURN(TfValue is_zero, AddElementwise(n, b, "Equal", {xy[0], TfValue{zero, false}}, {}, "x_is_zero"));
  TfValue rhs = xy[1];
  if (log) {
    GE_ASSIGN_OR_RETURN(rhs, AddElementwise(n, b, "Log", {xy[1]}, {}, "log_y"));
  }
  GE_ASSIGN_OR_RETURN(TfValue value, AddElementwise(n, b, log ? "Mul" : "Div", {xy[0], rhs}, {}, "value"));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, "Where", {is_zero, TfValue{zero, false}, value}));
  b.Define(n, 0, y);
  return Status::Ok();
}

// TF's FakeQuant (fake_quant_ops_functor.h): the range nudged so that 0 is
// exactly representable, then x clamped to it and rounded to the grid, in
// float32 and in TF's order of operations, so the result is TF's bit for
// bit. min and max must be constants (attributes of the Args form, scalar
// inputs of the Vars form).
Status MapFakeQuant(const tf::NodeDef& n, TfGraphBuilder& b, bool vars) {
  GE_ASSIGN_OR_RETURN(std::vector<TfValue> in, DataInputs(n, b, vars ? 3 : 1));
  if (b.Desc(in[0].ep).dtype != DataType::kFloat32) return NodeUnsupported(n, "inputs other than float32 are not supported");
  float min = -6.0f, max = 6.0f;
  if (vars) {
    for (size_t i : {1, 2}) {
      const Tensor* t = b.ConstValue(in[i]);
      if (!t || t->desc().NumElements() != 1 || t->desc().dtype != DataType::kFloat32)
        return NodeUnsupported(n, std::string(i == 1 ? "min" : "max") + " must be a constant float32 scalar "
                                  "(per-channel FakeQuant is not supported)");
      (i == 1 ? min : max) = static_cast<float>(t->ToDouble().at(0));
    }
  } else {
    GE_ASSIGN_OR_RETURN(min, AttrFloat(n, "min", -6.0f));
    GE_ASSIGN_OR_RETURN(max, AttrFloat(n, "max", 6.0f));
  }
  GE_ASSIGN_OR_RETURN(int64_t bits, AttrInt(n, "num_bits", 8));
  GE_ASSIGN_OR_RETURN(bool narrow, AttrBool(n, "narrow_range", false));
  if (bits < 2 || bits > 16) return NodeUnsupported(n, "num_bits " + std::to_string(bits) + " is outside 2..16 (TF's range)");
  if (!(min < max)) return NodeUnsupported(n, "min " + std::to_string(min) + " must be below max " + std::to_string(max));
  const float quant_min = narrow ? 1.0f : 0.0f;
  const float quant_max = static_cast<float>((int64_t{1} << bits) - 1);
  const float scale = (max - min) / (quant_max - quant_min);
  const float zero_from_min = quant_min - min / scale;
  const float zero = zero_from_min < quant_min   ? quant_min
                     : zero_from_min > quant_max ? quant_max
                                                 : std::round(zero_from_min);
  const float nmin = (quant_min - zero) * scale, nmax = (quant_max - zero) * scale;
  auto scalar = [&](const char* name, float v) { return AddScalar(n, b, name, DataType::kFloat32, v); };
  GE_ASSIGN_OR_RETURN(Endpoint lo, scalar("nudged_min", nmin));
  GE_ASSIGN_OR_RETURN(Endpoint hi, scalar("nudged_max", nmax));
  GE_ASSIGN_OR_RETURN(Endpoint inv, scalar("inv_scale", 1.0f / scale));
  GE_ASSIGN_OR_RETURN(Endpoint step, scalar("scale", scale));
  GE_ASSIGN_OR_RETURN(Endpoint half, scalar("half", 0.5f));
  GE_ASSIGN_OR_RETURN(Node* clip, b.Add(n, "Clip", {in[0].ep, lo, hi}, {}, "clamped"));
  const bool nchw = in[0].nchw;
  GE_ASSIGN_OR_RETURN(TfValue shifted, AddElementwise(n, b, "Sub", {{Endpoint{clip, 0}, nchw}, {lo, false}}, {}, "shifted"));
  GE_ASSIGN_OR_RETURN(TfValue scaled, AddElementwise(n, b, "Mul", {shifted, {inv, false}}, {}, "scaled"));
  GE_ASSIGN_OR_RETURN(TfValue plus, AddElementwise(n, b, "Add", {scaled, {half, false}}, {}, "plus_half"));
  GE_ASSIGN_OR_RETURN(TfValue level, AddElementwise(n, b, "Floor", {plus}, {}, "level"));
  GE_ASSIGN_OR_RETURN(TfValue back, AddElementwise(n, b, "Mul", {level, {step, false}}, {}, "dequantized"));
  GE_ASSIGN_OR_RETURN(TfValue y, AddElementwise(n, b, "Add", {back, {lo, false}}));
  b.Define(n, 0, y);
  return Status::Ok();
}

}  // namespace

void AddArithMappers(OpMapperTable& t) {
  t["FakeQuantWithMinMaxArgs"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapFakeQuant(n, b, false); };
  t["FakeQuantWithMinMaxVars"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapFakeQuant(n, b, true); };
  for (const char* op : {"Erf", "Floor", "Ceil", "Round", "Sign", "Reciprocal", "Elu", "Selu", "Softplus", "Softsign"})
    t[op] = Elementwise(op, 1);
  t["Inv"] = Elementwise("Reciprocal", 1);
  t["Rsqrt"] = Composed("Sqrt", "sqrt", "Reciprocal", 1);
  t["Square"] = MapSquare;
  t["LeakyRelu"] = MapLeakyRelu;
  t["SquaredDifference"] = Composed("Sub", "difference", "Mul", 2, /*twice=*/true);
  t["Pow"] = MapPow;
  t["AddN"] = Elementwise("Sum", -1);
  t["FloorMod"] = Elementwise("Mod", 2, {{"fmod", int64_t{0}}});
  t["Mod"] = Elementwise("Mod", 2, {{"fmod", int64_t{1}}});
  t["TruncateMod"] = Elementwise("Mod", 2, {{"fmod", int64_t{1}}});
  t["FloorDiv"] = MapFloorDiv;
  t["ClipByValue"] = MapClipByValue;
  for (const char* op : {"Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh"})
    t[op] = Elementwise(op, 1);
  t["Rint"] = Elementwise("Round", 1);
  t["IsNan"] = Elementwise("IsNaN", 1);
  t["IsInf"] = Elementwise("IsInf", 1);
  t["IsFinite"] = MapIsFinite;
  t["DivNoNan"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapNoNan(n, b, "Div"); };
  t["MulNoNan"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapNoNan(n, b, "Mul"); };
  t["Xlogy"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapXOp(n, b, true); };
  t["Xdivy"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapXOp(n, b, false); };
  for (const char* op : {"Expm1", "Log1p", "Erfc"}) t[op] = Elementwise(op, 1);
}

}  // namespace ge::tf_parser
