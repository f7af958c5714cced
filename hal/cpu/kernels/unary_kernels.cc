// Element-wise unary kernels: Relu, LeakyRelu, Clip, Sigmoid, Tanh, Erf,
// Gelu, Sqrt, Exp, Log, Neg, Abs, Reciprocal, Floor, Ceil, Not, HardSigmoid,
// Round, Sign, Elu, Selu, Softplus, Softsign, Celu, Mish, HardSwish,
// ThresholdedRelu, Shrink, the trigonometric and hyperbolic functions; IsNaN
// and IsInf (bool out).
//
// Sigmoid and Swish run on activation_loop.h (AVX-512/AVX2 picked at run
// time); the other transcendental f32 ops on the vector-extension math of
// loop_math.h; the rest are plain loops GCC vectorises. All are safe in
// place (x == y) and split across OpenMP threads from kParallelMin elements.
#include <cmath>
#include <limits>

#include "cpu_kernels.h"
#include "kernels/activation_loop.h"
#include "kernels/loop_common.h"
#include "kernels/loop_math.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

// y = f(x) on f32 vectors.
template <typename F>
Result<KernelPtr> VectorKernel(int64_t n, F f) {
  return MakeKernel([n, f](const void* const* in, void* const* out) {
    const float* x = static_cast<const float*>(in[0]);
    float* y = static_cast<float*>(out[0]);
    ParallelFor(n, [&](int64_t b, int64_t e) { MapVF(x + b, y + b, e - b, f); });
    return Status::Ok();
  });
}

// y = f(x) one element at a time (T in, U out), for GCC to vectorise.
template <typename T, typename U, typename F>
Result<KernelPtr> ScalarKernel(int64_t n, F f) {
  return MakeKernel([n, f](const void* const* in, void* const* out) {
    const T* x = static_cast<const T*>(in[0]);
    U* y = static_cast<U*>(out[0]);
    ParallelFor(n, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) y[i] = f(x[i]);
    });
    return Status::Ok();
  });
}

// Negation and absolute value through the unsigned type, so that the most
// negative integer wraps instead of being undefined behaviour.
template <typename T>
T Negate(T v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(std::make_unsigned_t<T>(0) - static_cast<std::make_unsigned_t<T>>(v));
  } else {
    return -v;
  }
}

template <typename T>
Result<KernelPtr> CreateNeg(const KernelSpec& spec, int64_t n) {
  return ScalarKernel<T, T>(n, [](T v) { return Negate(v); });
}
template <typename T>
Result<KernelPtr> CreateAbs(const KernelSpec& spec, int64_t n) {
  return ScalarKernel<T, T>(n, [](T v) { return v < 0 ? Negate(v) : v; });
}
template <typename T>
Result<KernelPtr> CreateRelu(const KernelSpec& spec, int64_t n) {
  return ScalarKernel<T, T>(n, [](T v) { return v < 0 ? T(0) : v; });  // NaN stays NaN
}

// Clip's bounds: inputs 1 and 2 (opset >= 11; constant or read per run,
// absent = unbounded) or attributes min/max (older opsets).
template <typename T>
Result<KernelPtr> CreateClip(const KernelSpec& spec, int64_t n) {
  T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  if (spec.attrs.Has("min")) lo = static_cast<T>(spec.attrs.GetFloat("min", 0));
  if (spec.attrs.Has("max")) hi = static_cast<T>(spec.attrs.GetFloat("max", 0));
  bool lo_at_run = false, hi_at_run = false;
  if (HasInput(spec, 1)) {
    if (const void* p = spec.ConstInput(1))
      std::memcpy(&lo, p, sizeof(T));
    else
      lo_at_run = true;
  }
  if (HasInput(spec, 2)) {
    if (const void* p = spec.ConstInput(2))
      std::memcpy(&hi, p, sizeof(T));
    else
      hi_at_run = true;
  }
  return MakeKernel([=](const void* const* in, void* const* out) {
    T l = lo, h = hi;
    if (lo_at_run) l = *static_cast<const T*>(in[1]);
    if (hi_at_run) h = *static_cast<const T*>(in[2]);
    const T* x = static_cast<const T*>(in[0]);
    T* y = static_cast<T*>(out[0]);
    ParallelFor(n, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T v = x[i] < l ? l : x[i];
        y[i] = v > h ? h : v;
      }
    });
    return Status::Ok();
  });
}

Status CheckClipBounds(const KernelSpec& spec) {
  for (size_t i = 1; i < 3; ++i) {
    if (!HasInput(spec, i)) continue;
    const TensorInfo& t = spec.inputs[i];
    if (t.dtype != spec.inputs[0].dtype)
      return Bad(spec, std::string(i == 1 ? "min" : "max") + " has dtype " + DataTypeName(t.dtype) + ", input has " +
                           DataTypeName(spec.inputs[0].dtype));
    if (t.NumElements() != 1) return Bad(spec, std::string(i == 1 ? "min" : "max") + " must be a scalar");
  }
  return Status::Ok();
}

Status CheckGelu(const KernelSpec& spec) {
  const std::string a = spec.attrs.GetString("approximate", "none");
  if (a != "none" && a != "tanh") return NotSupported(spec, "attribute approximate=\"" + a + "\" (none, tanh)");
  return Status::Ok();
}

using CreateFn = Result<KernelPtr> (*)(const KernelSpec&, int64_t);
using CheckFn = Status (*)(const KernelSpec&);

struct DtypeCreate {
  DataType dtype;
  CreateFn create;
};

// One op: its dtypes (output dtype = input dtype), extra inputs allowed
// beyond x, and an optional check of its attributes/extra inputs.
struct UnaryOp {
  const char* name;
  std::vector<DtypeCreate> impls;
  size_t max_inputs = 1;
  CheckFn check = nullptr;
};

Result<CreateFn> Plan(const UnaryOp& op, const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, op.max_inputs, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  const CreateFn* create = nullptr;
  std::string names;
  for (const auto& impl : op.impls) {
    if (impl.dtype == x.dtype) create = &impl.create;
    if (!names.empty()) names += ", ";
    names += DataTypeName(impl.dtype);
  }
  if (!create)
    return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported (" + names + ")");
  if (spec.outputs[0].dtype != x.dtype)
    return Bad(spec, std::string("output dtype ") + DataTypeName(spec.outputs[0].dtype) + " differs from input dtype " +
                         DataTypeName(x.dtype));
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, x.dims));
  if (op.check) GE_RETURN_IF_ERROR(op.check(spec));
  return *create;
}

template <typename F>
CreateFn VecOp() {
  return [](const KernelSpec& spec, int64_t n) { return VectorKernel(n, F{}); };
}

// Sigmoid and Swish on the ISA-dispatched loops a conv ends with
// (activation_loop.h): AVX-512 or AVX2 where the CPU has it.
template <act::Fn F>
Result<KernelPtr> CreateActLoop(const KernelSpec&, int64_t n) {
  return MakeKernel([n](const void* const* in, void* const* out) {
    act::Run(F, static_cast<const float*>(in[0]), static_cast<float*>(out[0]), n);
    return Status::Ok();
  });
}

Result<KernelPtr> CreateGelu(const KernelSpec& spec, int64_t n) {
  if (spec.attrs.GetString("approximate", "none") == "tanh") return VectorKernel(n, GeluTanhFn{});
  return VectorKernel(n, GeluErfFn{});
}

Result<KernelPtr> CreateLeakyRelu(const KernelSpec& spec, int64_t n) {
  const float alpha = spec.attrs.GetFloat("alpha", 0.01f);
  return VectorKernel(n, LeakyReluFn{alpha});
}

Result<KernelPtr> CreateHardSigmoid(const KernelSpec& spec, int64_t n) {
  const float alpha = spec.attrs.GetFloat("alpha", 0.2f), beta = spec.attrs.GetFloat("beta", 0.5f);
  return VectorKernel(n, HardSigmoidFn{alpha, beta});
}

template <float (*F)(float)>
CreateFn MathOp() {
  return [](const KernelSpec& spec, int64_t n) { return ScalarKernel<float, float>(n, [](float v) { return F(v); }); };
}
float SqrtF(float v) { return std::sqrt(v); }
float LogF(float v) { return std::log(v); }
float FloorF(float v) { return std::floor(v); }
float CeilF(float v) { return std::ceil(v); }
float ReciprocalF(float v) { return 1.0f / v; }

// Under the default rounding mode nearbyint rounds halves to even (ONNX, TF).
float RoundF(float v) { return std::nearbyint(v); }
// log(1 + e^x) without overflow for large x or loss for very negative x.
float SoftplusF(float v) { return std::max(v, 0.0f) + std::log1p(std::exp(-std::fabs(v))); }
float SoftsignF(float v) { return v / (1.0f + std::fabs(v)); }

float SinF(float v) { return std::sin(v); }
float CosF(float v) { return std::cos(v); }
float TanF(float v) { return std::tan(v); }
float AsinF(float v) { return std::asin(v); }
float AcosF(float v) { return std::acos(v); }
float AtanF(float v) { return std::atan(v); }
float SinhF(float v) { return std::sinh(v); }
float CoshF(float v) { return std::cosh(v); }
float AsinhF(float v) { return std::asinh(v); }
float AcoshF(float v) { return std::acosh(v); }
float AtanhF(float v) { return std::atanh(v); }
// x * relu6(x + 3) / 6, as ONNX defines it (HardSigmoid with 1/6, 1/2).
float HardSwishF(float v) { return v * std::min(1.0f, std::max(0.0f, v / 6.0f + 0.5f)); }
float MishF(float v) { return v * std::tanh(SoftplusF(v)); }

Result<KernelPtr> CreateThresholdedRelu(const KernelSpec& spec, int64_t n) {
  const float alpha = spec.attrs.GetFloat("alpha", 1.0f);
  return ScalarKernel<float, float>(n, [alpha](float v) { return v > alpha ? v : 0.0f; });
}

Result<KernelPtr> CreateShrink(const KernelSpec& spec, int64_t n) {
  const float lambd = spec.attrs.GetFloat("lambd", 0.5f), bias = spec.attrs.GetFloat("bias", 0.0f);
  return ScalarKernel<float, float>(n, [lambd, bias](float v) {
    return v < -lambd ? v + bias : v > lambd ? v - bias : 0.0f;
  });
}

Result<KernelPtr> CreateCelu(const KernelSpec& spec, int64_t n) {
  const float alpha = spec.attrs.GetFloat("alpha", 1.0f);
  return ScalarKernel<float, float>(n, [alpha](float v) {
    return std::max(0.0f, v) + std::min(0.0f, alpha * std::expm1(v / alpha));
  });
}

// expm1 keeps the precision of alpha * (e^x - 1) for x near 0.
Result<KernelPtr> CreateElu(const KernelSpec& spec, int64_t n) {
  const float alpha = spec.attrs.GetFloat("alpha", 1.0f);
  return ScalarKernel<float, float>(n, [alpha](float v) { return v < 0 ? alpha * std::expm1(v) : v; });
}

Result<KernelPtr> CreateSelu(const KernelSpec& spec, int64_t n) {
  const float alpha = spec.attrs.GetFloat("alpha", 1.67326319217681884765625f);
  const float gamma = spec.attrs.GetFloat("gamma", 1.05070102214813232421875f);
  return ScalarKernel<float, float>(n,
                                    [alpha, gamma](float v) { return gamma * (v <= 0 ? alpha * std::expm1(v) : v); });
}

// -1, 0 or 1; NaN stays NaN.
template <typename T>
Result<KernelPtr> CreateSign(const KernelSpec& spec, int64_t n) {
  return ScalarKernel<T, T>(n, [](T v) { return v > 0 ? T(1) : v < 0 ? T(-1) : v; });
}

Result<KernelPtr> CreateNot(const KernelSpec& spec, int64_t n) {
  return ScalarKernel<uint8_t, uint8_t>(n, [](uint8_t v) { return static_cast<uint8_t>(v == 0); });
}

// std's versions keep full precision near 0 (expm1, log1p) and in the
// tail (erfc).
template <float (*F)(float)>
Result<KernelPtr> CreateStd(const KernelSpec&, int64_t n) {
  return ScalarKernel<float, float>(n, [](float v) { return F(v); });
}
float Expm1F(float v) { return std::expm1(v); }
float Log1pF(float v) { return std::log1p(v); }
float ErfcF(float v) { return std::erfc(v); }

const std::vector<UnaryOp>& Ops() {
  using D = DataType;
  static const std::vector<UnaryOp> ops = {
      {"Relu", {{D::kFloat32, CreateRelu<float>}, {D::kInt64, CreateRelu<int64_t>}, {D::kInt32, CreateRelu<int32_t>}}},
      {"LeakyRelu", {{D::kFloat32, CreateLeakyRelu}}},
      {"Clip",
       {{D::kFloat32, CreateClip<float>},
        {D::kInt64, CreateClip<int64_t>},
        {D::kInt32, CreateClip<int32_t>},
        {D::kFloat64, CreateClip<double>},
        {D::kInt8, CreateClip<int8_t>},
        {D::kInt16, CreateClip<int16_t>},
        {D::kUInt8, CreateClip<uint8_t>},
        {D::kUInt16, CreateClip<uint16_t>},
        {D::kUInt32, CreateClip<uint32_t>},
        {D::kUInt64, CreateClip<uint64_t>}},
       3,
       CheckClipBounds},
      {"Sigmoid", {{D::kFloat32, CreateActLoop<act::Fn::kSigmoid>}}},
      {"Swish", {{D::kFloat32, CreateActLoop<act::Fn::kSwish>}}},
      {"Tanh", {{D::kFloat32, VecOp<TanhFn>()}}},
      {"Erf", {{D::kFloat32, VecOp<ErfFn>()}}},
      {"Expm1", {{D::kFloat32, CreateStd<Expm1F>}}},
      {"Log1p", {{D::kFloat32, CreateStd<Log1pF>}}},
      {"Erfc", {{D::kFloat32, CreateStd<ErfcF>}}},
      {"Gelu", {{D::kFloat32, CreateGelu}}, 1, CheckGelu},
      {"Exp", {{D::kFloat32, VecOp<ExpFn>()}}},
      {"Sqrt", {{D::kFloat32, MathOp<SqrtF>()}}},
      {"Log", {{D::kFloat32, MathOp<LogF>()}}},
      {"Floor", {{D::kFloat32, MathOp<FloorF>()}}},
      {"Ceil", {{D::kFloat32, MathOp<CeilF>()}}},
      {"Reciprocal", {{D::kFloat32, MathOp<ReciprocalF>()}}},
      {"Neg", {{D::kFloat32, CreateNeg<float>}, {D::kInt64, CreateNeg<int64_t>}, {D::kInt32, CreateNeg<int32_t>}}},
      {"Abs", {{D::kFloat32, CreateAbs<float>}, {D::kInt64, CreateAbs<int64_t>}, {D::kInt32, CreateAbs<int32_t>}}},
      {"Not", {{D::kBool, CreateNot}}},
      {"HardSigmoid", {{D::kFloat32, CreateHardSigmoid}}},
      {"Round", {{D::kFloat32, MathOp<RoundF>()}}},
      {"Sign", {{D::kFloat32, CreateSign<float>}, {D::kInt64, CreateSign<int64_t>}, {D::kInt32, CreateSign<int32_t>}}},
      {"Elu", {{D::kFloat32, CreateElu}}},
      {"Selu", {{D::kFloat32, CreateSelu}}},
      {"Softplus", {{D::kFloat32, MathOp<SoftplusF>()}}},
      {"Softsign", {{D::kFloat32, MathOp<SoftsignF>()}}},
      {"Sin", {{D::kFloat32, MathOp<SinF>()}}},
      {"Cos", {{D::kFloat32, MathOp<CosF>()}}},
      {"Tan", {{D::kFloat32, MathOp<TanF>()}}},
      {"Asin", {{D::kFloat32, MathOp<AsinF>()}}},
      {"Acos", {{D::kFloat32, MathOp<AcosF>()}}},
      {"Atan", {{D::kFloat32, MathOp<AtanF>()}}},
      {"Sinh", {{D::kFloat32, MathOp<SinhF>()}}},
      {"Cosh", {{D::kFloat32, MathOp<CoshF>()}}},
      {"Asinh", {{D::kFloat32, MathOp<AsinhF>()}}},
      {"Acosh", {{D::kFloat32, MathOp<AcoshF>()}}},
      {"Atanh", {{D::kFloat32, MathOp<AtanhF>()}}},
      {"HardSwish", {{D::kFloat32, MathOp<HardSwishF>()}}},
      {"Mish", {{D::kFloat32, MathOp<MishF>()}}},
      {"ThresholdedRelu", {{D::kFloat32, CreateThresholdedRelu}}},
      {"Shrink", {{D::kFloat32, CreateShrink}}},
      {"Celu", {{D::kFloat32, CreateCelu}}},
  };
  return ops;
}

// IsNaN, IsInf (detect_negative, detect_positive): f32 in, bool out.
Status CheckFloatTest(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[0], "input", {DataType::kFloat32}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.outputs[0], "output", {DataType::kBool}));
  return CheckOutputDims(spec, 0, spec.inputs[0].dims);
}

Result<KernelPtr> CreateFloatTest(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckFloatTest(spec));
  const int64_t n = spec.inputs[0].NumElements();
  if (spec.op == "IsNaN") return ScalarKernel<float, uint8_t>(n, [](float v) { return uint8_t(v != v); });
  const bool neg = spec.attrs.GetInt("detect_negative", 1) != 0, pos = spec.attrs.GetInt("detect_positive", 1) != 0;
  return ScalarKernel<float, uint8_t>(n, [neg, pos](float v) {
    return uint8_t(std::isinf(v) && (v < 0 ? neg : pos));
  });
}

}  // namespace

void RegisterUnaryKernels(KernelRegistry& r) {
  for (const char* op : {"IsNaN", "IsInf"}) r.Register(op, CheckFloatTest, CreateFloatTest);
  for (const UnaryOp& op : Ops()) {
    const UnaryOp* p = &op;  // Ops() is static: the pointer outlives the registry
    r.Register(
        op.name, [p](const KernelSpec& spec) { return Plan(*p, spec).status(); },
        [p](const KernelSpec& spec) -> Result<KernelPtr> {
          GE_ASSIGN_OR_RETURN(CreateFn create, Plan(*p, spec));
          return create(spec, spec.inputs[0].NumElements());
        },
        LayoutSupport::kElementwise);  // one flat loop: any layout, as long as in and out share it
  }
}

}  // namespace ge::hal
