// Element-wise binary kernels with ONNX (numpy) broadcasting: Add, Sub, Mul,
// Div, Pow, Mod, BitShift, PRelu; Equal, Less, Greater, LessOrEqual, GreaterOrEqual
// (bool out); And, Or, Xor (bool); and Where(cond, X, Y).
//
// The broadcast is planned at Create (loop_broadcast.h); Run picks one of a
// few row loops by which operands are contiguous along a row and runs it
// over the rows. Integer arithmetic wraps (computed unsigned) instead of
// being undefined on overflow; integer Div truncates like C and reports a
// zero divisor as an error instead of trapping (so does integer Mod).
#include <cmath>
#include <type_traits>

#include "cpu_kernels.h"
#include "kernels/channel_affine_kernels.h"
#include "kernels/loop_broadcast.h"
#include "kernels/loop_convert.h"
#include "kernels/loop_half.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

template <typename T>
using Unsigned = std::make_unsigned_t<T>;

template <typename T, typename F>
T Wrapping(T a, T b, F f) {
  if constexpr (std::is_integral_v<T>) {
    // Narrow types promote to int, where 0xffff * 0xffff would overflow:
    // compute them in unsigned int.
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, Unsigned<T>>;
    return static_cast<T>(f(static_cast<W>(static_cast<Unsigned<T>>(a)), static_cast<W>(static_cast<Unsigned<T>>(b))));
  } else {
    return f(a, b);
  }
}

struct AddOp {
  template <typename T>
  T operator()(T a, T b) const {
    return Wrapping(a, b, [](auto x, auto y) { return x + y; });
  }
};
struct SubOp {
  template <typename T>
  T operator()(T a, T b) const {
    return Wrapping(a, b, [](auto x, auto y) { return x - y; });
  }
};
struct MulOp {
  template <typename T>
  T operator()(T a, T b) const {
    return Wrapping(a, b, [](auto x, auto y) { return x * y; });
  }
};
// Integers: C truncation; b == 0 is rejected before the loop, b == -1
// negates (the most negative value wraps instead of trapping).
struct DivOp {
  static constexpr bool kRejectsZero = true;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_signed_v<T> && std::is_integral_v<T>)
      if (b == -1) return static_cast<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(a));
    return static_cast<T>(a / b);
  }
};
// Mod with fmod=1: the remainder of truncating division, C's % and fmod.
// b == -1 gives 0 (INT_MIN % -1 would trap).
struct TruncModOp {
  static constexpr bool kRejectsZero = true;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) return std::fmod(a, b);
    else if constexpr (std::is_signed_v<T>) return b == -1 ? T(0) : static_cast<T>(a % b);
    else return static_cast<T>(a % b);
  }
};
// Mod with fmod=0: the remainder of flooring division, with the divisor's
// sign (Python's %, TF's FloorMod).
struct FloorModOp {
  static constexpr bool kRejectsZero = true;
  template <typename T>
  T operator()(T a, T b) const {
    const T r = TruncModOp{}(a, b);
    if constexpr (std::is_unsigned_v<T>) return r;
    else return r != 0 && ((r < 0) != (b < 0)) ? static_cast<T>(r + b) : r;
  }
};
// BitShift on unsigned integers; a shift by the width or more gives 0 (C
// leaves it undefined).
struct ShiftLeftOp {
  template <typename T>
  T operator()(T a, T b) const {
    return b >= sizeof(T) * 8 ? T(0) : static_cast<T>(a << b);
  }
};
struct ShiftRightOp {
  template <typename T>
  T operator()(T a, T b) const {
    return b >= sizeof(T) * 8 ? T(0) : static_cast<T>(a >> b);
  }
};

// PRelu(x, slope): the slope broadcasts to x (the output is x's shape).
struct PReluOp {
  template <typename T>
  T operator()(T x, T slope) const {
    return x < 0 ? x * slope : x;
  }
};

// NaN in either operand gives NaN, as numpy's maximum/minimum do.

struct PowFloatOp {  // f32 base, any exponent type
  template <typename E>
  float operator()(float a, E b) const {
    return std::pow(a, static_cast<float>(b));
  }
};
// Integer base: square-and-multiply for integer exponents (exact, wrapping),
// double pow for float exponents; negative integer exponents truncate
// towards zero like 1 / a^|b|.
struct PowIntOp {
  template <typename T, typename E>
  T operator()(T a, E b) const {
    if constexpr (std::is_floating_point_v<E>) {
      return Convert<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));  // saturating, NaN -> 0
    } else {
      if (b < 0) return a == 1 ? T(1) : a == -1 ? ((b & 1) ? T(-1) : T(1)) : T(0);
      Unsigned<T> result = 1, base = static_cast<Unsigned<T>>(a);
      for (auto e = static_cast<std::make_unsigned_t<E>>(b); e; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
      }
      return static_cast<T>(result);
    }
  }
};

struct EqualOp {
  template <typename T>
  uint8_t operator()(T a, T b) const {
    return a == b;
  }
};
struct LessOp {
  template <typename T>
  uint8_t operator()(T a, T b) const {
    return a < b;
  }
};
struct GreaterOp {
  template <typename T>
  uint8_t operator()(T a, T b) const {
    return a > b;
  }
};
struct LessOrEqualOp {
  template <typename T>
  uint8_t operator()(T a, T b) const {
    return a <= b;
  }
};
struct GreaterOrEqualOp {
  template <typename T>
  uint8_t operator()(T a, T b) const {
    return a >= b;
  }
};
struct AndOp {
  uint8_t operator()(uint8_t a, uint8_t b) const { return (a != 0) & (b != 0); }
};
struct OrOp {
  uint8_t operator()(uint8_t a, uint8_t b) const { return (a != 0) | (b != 0); }
};
struct XorOp {
  uint8_t operator()(uint8_t a, uint8_t b) const { return (a != 0) ^ (b != 0); }
};

// Only integer division traps on zero; float Mod by zero is NaN.
template <typename Op, typename B>
constexpr bool RejectsZero() {
  if constexpr (requires { Op::kRejectsZero; }) return Op::kRejectsZero && std::is_integral_v<B>;
  return false;
}

// One row: VA/VB say whether the operand advances (else its first element
// is used throughout, loaded once). Rows are plain functions behind a
// pointer, so the broadcast odometer and its OpenMP regions exist once for
// all ~250 dtype/op pairs instead of once per pair (that had made this file
// the slowest of the build by minutes, worst under the sanitizers).
template <bool VA, bool VB, typename A, typename B, typename Y, typename Op>
void BinaryRow(const void* pa, const void* pb, void* py, int64_t n) {
  const A* a = static_cast<const A*>(pa);
  const B* b = static_cast<const B*>(pb);
  Y* y = static_cast<Y*>(py);
  const Op op{};
  const A a0 = a[0];
  const B b0 = b[0];
  for (int64_t i = 0; i < n; ++i) y[i] = op(VA ? a[i] : a0, VB ? b[i] : b0);
}

using BinaryRowFn = void (*)(const void*, const void*, void*, int64_t);

template <typename B>
bool HasZero(const void* p, int64_t n) {
  const B* b = static_cast<const B*>(p);
  for (int64_t i = 0; i < n; ++i)
    if (b[i] == 0) return true;
  return false;
}

// The dtype-specific parts of a binary kernel: the row loop for this
// operand contiguity, element sizes, and the zero-divisor check if any.
struct BinaryOps {
  BinaryRowFn row;
  bool (*has_zero)(const void*, int64_t);
  size_t a_size, b_size, y_size;
};

class BinaryKernel final : public Kernel {
 public:
  BinaryKernel(const RowPlan<2>& plan, const BinaryOps& ops, int64_t b_elems, std::string where)
      : plan_(plan), ops_(ops), b_elems_(b_elems), where_(std::move(where)) {}

  Status Run(const void* const* in, void* const* out) override {
    const char* a = static_cast<const char*>(in[0]);
    const char* b = static_cast<const char*>(in[1]);
    char* y = static_cast<char*>(out[0]);
    if (ops_.has_zero && ops_.has_zero(b, b_elems_)) return InvalidArgument(where_ + ": integer division by zero");
    const BinaryOps& o = ops_;
    ForEachRow(plan_, [&](const std::array<int64_t, 2>& off, int64_t oo, int64_t n) {
      o.row(a + off[0] * o.a_size, b + off[1] * o.b_size, y + oo * o.y_size, n);
    });
    return Status::Ok();
  }

 private:
  RowPlan<2> plan_;
  BinaryOps ops_;
  int64_t b_elems_;
  std::string where_;
};

Status CheckShapes(const KernelSpec& spec, size_t n_in) {
  std::vector<const std::vector<int64_t>*> shapes;
  for (size_t i = 0; i < n_in; ++i) shapes.push_back(&spec.inputs[i].dims);
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> out, BroadcastShape(spec, shapes));
  return CheckOutputDims(spec, 0, out);
}

using Factory = Result<KernelPtr> (*)(const KernelSpec&);

template <typename A, typename B, typename Y, typename Op>
Result<KernelPtr> Make(const KernelSpec& spec) {
  const auto plan = PlanBroadcast<2>({&spec.inputs[0].dims, &spec.inputs[1].dims}, spec.outputs[0].dims);
  BinaryOps ops{nullptr, nullptr, sizeof(A), sizeof(B), sizeof(Y)};
  if constexpr (RejectsZero<Op, B>()) ops.has_zero = HasZero<B>;
  const bool va = plan.contiguous[0], vb = plan.contiguous[1];
  ops.row = va ? (vb ? BinaryRow<true, true, A, B, Y, Op> : BinaryRow<true, false, A, B, Y, Op>)
               : (vb ? BinaryRow<false, true, A, B, Y, Op> : BinaryRow<false, false, A, B, Y, Op>);
  return KernelPtr(new BinaryKernel(plan, ops, spec.inputs[1].NumElements(), Where(spec)));
}

// Which kernel runs (a, b) -> out for an op; nullptr when unsupported.
struct Impl {
  DataType a, b, out;
  Factory make;
};

using D = DataType;

constexpr std::initializer_list<DataType> kIntegers = {D::kInt8,  D::kInt16,  D::kInt32,  D::kInt64,
                                                       D::kUInt8, D::kUInt16, D::kUInt32, D::kUInt64};
constexpr std::initializer_list<DataType> kUnsigned = {D::kUInt8, D::kUInt16, D::kUInt32, D::kUInt64};

// (t, t) -> t for each of `dtypes`, through make<T> (which may be
// constrained to the types it takes).
template <typename MakeT>
std::vector<Impl> SameTyped(std::initializer_list<DataType> dtypes, MakeT make) {
  std::vector<Impl> v;
  for (DataType t : dtypes)
    DispatchNumeric(t, [&]<typename T>() {
      if constexpr (!std::is_same_v<T, bool>)
        if constexpr (requires { make.template operator()<T>(); })
          v.push_back({t, t, t, make.template operator()<T>()});
    });
  return v;
}

// f32 and f64 first (the common case is found first), then every integer.
template <typename Op>
std::vector<Impl> Arithmetic() {
  std::vector<Impl> v = SameTyped({D::kFloat32, D::kFloat64}, []<typename T>() { return Make<T, T, T, Op>; });
  for (const Impl& i : SameTyped(kIntegers, []<typename T>() { return Make<T, T, T, Op>; })) v.push_back(i);
  return v;
}

// Pow(x, c) with a constant scalar f32 exponent: the common squares and
// roots (LayerNorm's variance, RMS norms) without calling pow per element.
Result<KernelPtr> MakePowF32(const KernelSpec& spec) {
  const void* e = spec.ConstInput(1);
  if (!e || spec.inputs[1].NumElements() != 1 || spec.outputs[0].dims != spec.inputs[0].dims)
    return Make<float, float, float, PowFloatOp>(spec);
  float c;
  std::memcpy(&c, e, sizeof c);
  const int64_t n = spec.inputs[0].NumElements();
  auto map = [n](auto f) {
    return MakeKernel([n, f](const void* const* in, void* const* out) {
      const float* x = static_cast<const float*>(in[0]);
      float* y = static_cast<float*>(out[0]);
      ParallelFor(n, [&](int64_t b, int64_t end) {
        for (int64_t i = b; i < end; ++i) y[i] = f(x[i]);
      });
      return Status::Ok();
    });
  };
  if (c == 2.0f) return map([](float v) { return v * v; });
  if (c == 3.0f) return map([](float v) { return v * v * v; });
  if (c == 1.0f) return map([](float v) { return v; });
  if (c == 0.5f) return map([](float v) { return v == -INFINITY ? INFINITY : std::sqrt(v); });  // pow(-inf, .5) = inf
  if (c == -1.0f) return map([](float v) { return 1.0f / v; });
  return map([c](float v) { return std::pow(v, c); });
}

// An f32 base takes an exponent of any integer type (ONNX allows them all).
std::vector<Impl> PowImpls() {
  std::vector<Impl> v = {{D::kFloat32, D::kFloat32, D::kFloat32, MakePowF32},
                         {D::kInt64, D::kInt64, D::kInt64, Make<int64_t, int64_t, int64_t, PowIntOp>},
                         {D::kInt64, D::kInt32, D::kInt64, Make<int64_t, int32_t, int64_t, PowIntOp>},
                         {D::kInt64, D::kFloat32, D::kInt64, Make<int64_t, float, int64_t, PowIntOp>},
                         {D::kInt32, D::kInt32, D::kInt32, Make<int32_t, int32_t, int32_t, PowIntOp>},
                         {D::kInt32, D::kInt64, D::kInt32, Make<int32_t, int64_t, int32_t, PowIntOp>},
                         {D::kInt32, D::kFloat32, D::kInt32, Make<int32_t, float, int32_t, PowIntOp>}};
  for (DataType e : kIntegers)
    DispatchNumeric(e, [&]<typename E>() {
      if constexpr (!std::is_same_v<E, bool>) v.push_back({D::kFloat32, e, D::kFloat32, Make<float, E, float, PowFloatOp>});
    });
  return v;
}

// fmod picks the op: the dtype table is the same for both. f16 computes in
// f32, where the remainder is exact.
template <typename T>
Result<KernelPtr> MakeMod(const KernelSpec& spec) {
  const bool trunc = spec.attrs.GetInt("fmod", 0) != 0;
  if constexpr (std::is_same_v<T, uint16_t>) {
    if (spec.inputs[0].dtype == D::kFloat16)
      return trunc ? Make<T, T, T, OnHalf<TruncModOp>>(spec) : Make<T, T, T, OnHalf<FloorModOp>>(spec);
  }
  return trunc ? Make<T, T, T, TruncModOp>(spec) : Make<T, T, T, FloorModOp>(spec);
}

Status CheckMod(const KernelSpec& spec) {
  const int64_t fmod = spec.attrs.GetInt("fmod", 0);
  if (fmod != 0 && fmod != 1) return Bad(spec, "attribute fmod must be 0 or 1, not " + std::to_string(fmod));
  return Status::Ok();
}

std::vector<Impl> ModImpls() {
  std::vector<Impl> v = SameTyped({D::kFloat32, D::kFloat64}, []<typename T>() { return MakeMod<T>; });
  v.push_back({D::kFloat16, D::kFloat16, D::kFloat16, MakeMod<uint16_t>});
  for (const Impl& i : SameTyped(kIntegers, []<typename T>() { return MakeMod<T>; })) v.push_back(i);
  return v;
}

// direction picks the op.
template <typename T>
Result<KernelPtr> MakeShift(const KernelSpec& spec) {
  if (spec.attrs.GetString("direction", "") == "LEFT") return Make<T, T, T, ShiftLeftOp>(spec);
  return Make<T, T, T, ShiftRightOp>(spec);
}

Status CheckShift(const KernelSpec& spec) {
  const std::string d = spec.attrs.GetString("direction", "");
  if (d != "LEFT" && d != "RIGHT") return Bad(spec, "attribute direction must be LEFT or RIGHT, not \"" + d + "\"");
  return Status::Ok();
}

template <typename Op>
std::vector<Impl> Comparison(bool with_bool) {
  std::vector<Impl> v = {{D::kFloat32, D::kFloat32, D::kBool, Make<float, float, uint8_t, Op>},
                         {D::kInt64, D::kInt64, D::kBool, Make<int64_t, int64_t, uint8_t, Op>},
                         {D::kInt32, D::kInt32, D::kBool, Make<int32_t, int32_t, uint8_t, Op>}};
  if (with_bool) v.push_back({D::kBool, D::kBool, D::kBool, Make<uint8_t, uint8_t, uint8_t, Op>});
  return v;
}

template <typename Op>
std::vector<Impl> Logical() {
  return {{D::kBool, D::kBool, D::kBool, Make<uint8_t, uint8_t, uint8_t, Op>}};
}

Result<Factory> PlanBinary(const std::vector<Impl>& impls, const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const DataType a = spec.inputs[0].dtype, b = spec.inputs[1].dtype;
  const Impl* found = nullptr;
  std::string names;
  for (const Impl& i : impls) {
    if (i.a == a && i.b == b) found = &i;
    if (!names.empty()) names += ", ";
    names += DataTypeName(i.a);
    names += "/";
    names += DataTypeName(i.b);
  }
  if (!found)
    return NotSupported(
        spec, std::string("dtypes ") + DataTypeName(a) + "/" + DataTypeName(b) + " are not supported (" + names + ")");
  if (spec.outputs[0].dtype != found->out)
    return Bad(spec, std::string("output dtype is ") + DataTypeName(spec.outputs[0].dtype) + ", expected " +
                         DataTypeName(found->out));
  GE_RETURN_IF_ERROR(CheckShapes(spec, 2));
  if (spec.op == "Mod") GE_RETURN_IF_ERROR(CheckMod(spec));
  if (spec.op == "BitShift") GE_RETURN_IF_ERROR(CheckShift(spec));
  return found->make;
}

void RegisterBinary(KernelRegistry& r, const char* op, std::vector<Impl> impls) {
  auto shared = std::make_shared<const std::vector<Impl>>(std::move(impls));
  r.Register(
      op, [shared](const KernelSpec& spec) { return PlanBinary(*shared, spec).status(); },
      [shared](const KernelSpec& spec) -> Result<KernelPtr> {
        GE_ASSIGN_OR_RETURN(Factory make, PlanBinary(*shared, spec));
        return make(spec);
      },
      LayoutSupport::kElementwise);  // same-shaped blocked operands are one flat loop
}

// The registry's kElementwise rule, which a kOwn kernel checks itself:
// laid-out operands share the output's layout and dims (plain scalars aside).
Status FlatLayout(const KernelSpec& spec) {
  const TensorInfo& y = spec.outputs[0];
  for (const TensorInfo& t : spec.inputs) {
    if (t.NumElements() == 1 && t.channel_block == 0) continue;
    if (t.channel_block != y.channel_block || (y.channel_block != 0 && t.dims != y.dims))
      return NotSupported(spec, "laid-out operands need the output's layout and dims");
  }
  if (y.channel_block != 0 && (y.dims.size() < 3 || (y.channel_block > 0 && y.dims[1] % y.channel_block != 0)))
    return NotSupported(spec, "a laid-out output needs rank >= 3 and channels the block divides");
  return Status::Ok();
}

// Mul and Add also run a per-channel operand on a laid-out tensor (the
// squeeze-excitation gate, a BatchNorm's halves) in that layout, so the
// layout stage needs no reorders around them (channel_affine_kernels.cc).
void RegisterChannelBinary(KernelRegistry& r, const char* op, std::vector<Impl> impls) {
  auto shared = std::make_shared<const std::vector<Impl>>(std::move(impls));
  r.Register(
      op,
      [shared](const KernelSpec& spec) -> Status {
        GE_RETURN_IF_ERROR(PlanBinary(*shared, spec).status());
        return IsChannelBroadcast(spec) ? Status::Ok() : FlatLayout(spec);
      },
      [shared](const KernelSpec& spec) -> Result<KernelPtr> {
        GE_ASSIGN_OR_RETURN(Factory make, PlanBinary(*shared, spec));
        if (IsChannelBroadcast(spec)) return CreateChannelBroadcast(spec);
        GE_RETURN_IF_ERROR(FlatLayout(spec));
        return make(spec);
      },
      LayoutSupport::kOwn);
}

// Where(cond, X, Y): moves elements by their size, so any dtype works.
template <bool VC, bool VX, bool VY, typename U>
void WhereRow(const uint8_t* c, const void* px, const void* py, void* po, int64_t n) {
  const U* x = static_cast<const U*>(px);
  const U* y = static_cast<const U*>(py);
  U* o = static_cast<U*>(po);
  const uint8_t c0 = c[0];
  const U x0 = x[0], y0 = y[0];
  for (int64_t i = 0; i < n; ++i) o[i] = (VC ? c[i] : c0) ? (VX ? x[i] : x0) : (VY ? y[i] : y0);
}

using WhereRowFn = void (*)(const uint8_t*, const void*, const void*, void*, int64_t);

template <typename U>
WhereRowFn PickWhereRow(int variant) {
  constexpr WhereRowFn rows[8] = {WhereRow<false, false, false, U>, WhereRow<false, false, true, U>,
                                  WhereRow<false, true, false, U>,  WhereRow<false, true, true, U>,
                                  WhereRow<true, false, false, U>,  WhereRow<true, false, true, U>,
                                  WhereRow<true, true, false, U>,   WhereRow<true, true, true, U>};
  return rows[variant];
}

class WhereKernel final : public Kernel {
 public:
  WhereKernel(const RowPlan<3>& plan, WhereRowFn row, size_t size) : plan_(plan), row_(row), size_(size) {}

  Status Run(const void* const* in, void* const* out) override {
    const auto* c = static_cast<const uint8_t*>(in[0]);
    const auto* x = static_cast<const char*>(in[1]);
    const auto* y = static_cast<const char*>(in[2]);
    auto* o = static_cast<char*>(out[0]);
    ForEachRow(plan_, [&](const std::array<int64_t, 3>& off, int64_t oo, int64_t n) {
      row_(c + off[0], x + off[1] * size_, y + off[2] * size_, o + oo * size_, n);
    });
    return Status::Ok();
  }

 private:
  RowPlan<3> plan_;
  WhereRowFn row_;
  size_t size_;
};

Status PlanWhere(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 3, 3, 1, 1));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[0], "condition", {D::kBool}));
  const DataType t = spec.inputs[1].dtype;
  if (spec.inputs[2].dtype != t)
    return Bad(spec,
               std::string("X and Y dtypes differ: ") + DataTypeName(t) + " vs " + DataTypeName(spec.inputs[2].dtype));
  const size_t size = DataTypeSize(t);
  if (size != 1 && size != 2 && size != 4 && size != 8)
    return NotSupported(spec, std::string("dtype ") + DataTypeName(t) + " is not supported");
  if (spec.outputs[0].dtype != t)
    return Bad(spec,
               std::string("output dtype is ") + DataTypeName(spec.outputs[0].dtype) + ", expected " + DataTypeName(t));
  return CheckShapes(spec, 3);
}

Result<KernelPtr> CreateWhere(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(PlanWhere(spec));
  const auto plan =
      PlanBroadcast<3>({&spec.inputs[0].dims, &spec.inputs[1].dims, &spec.inputs[2].dims}, spec.outputs[0].dims);
  const int variant = (plan.contiguous[0] ? 4 : 0) | (plan.contiguous[1] ? 2 : 0) | (plan.contiguous[2] ? 1 : 0);
  const size_t size = DataTypeSize(spec.inputs[1].dtype);
  WhereRowFn row = nullptr;
  DispatchBySize(size, [&]<typename U>() { row = PickWhereRow<U>(variant); });
  return KernelPtr(new WhereKernel(plan, row, size));
}

}  // namespace

void RegisterBinaryKernels(KernelRegistry& r) {
  RegisterChannelBinary(r, "Add", Arithmetic<AddOp>());
  RegisterBinary(r, "Sub", Arithmetic<SubOp>());
  RegisterChannelBinary(r, "Mul", Arithmetic<MulOp>());
  RegisterBinary(r, "Div", Arithmetic<DivOp>());
  RegisterBinary(r, "Pow", PowImpls());
  RegisterBinary(r, "Mod", ModImpls());
  // A trailing requires-clause: clang 14 (the fuzz build) misparses one
  // between the template parameters and the call's parentheses.
  RegisterBinary(r, "BitShift",
                 SameTyped(kUnsigned, []<typename T>() requires std::is_unsigned_v<T> { return MakeShift<T>; }));
  RegisterBinary(r, "PRelu", SameTyped({D::kFloat32, D::kFloat64}, []<typename T>() { return Make<T, T, T, PReluOp>; }));
  RegisterBinary(r, "Equal", Comparison<EqualOp>(true));
  RegisterBinary(r, "Less", Comparison<LessOp>(false));
  RegisterBinary(r, "Greater", Comparison<GreaterOp>(false));
  RegisterBinary(r, "LessOrEqual", Comparison<LessOrEqualOp>(false));
  RegisterBinary(r, "GreaterOrEqual", Comparison<GreaterOrEqualOp>(false));
  RegisterBinary(r, "And", Logical<AndOp>());
  RegisterBinary(r, "Or", Logical<OrOp>());
  RegisterBinary(r, "Xor", Logical<XorOp>());
  r.Register("Where", PlanWhere, CreateWhere);
}

}  // namespace ge::hal
