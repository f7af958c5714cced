// Vectorised f32 exp, tanh, erf and GELU for the unary kernels (Sigmoid and
// Swish: activation_loop.h).
//
// Written with GCC/Clang vector extensions rather than left to the
// auto-vectoriser: under the default -ftrapping-math GCC will not if-convert
// the clamps and range selects these functions need, so plain loops calling
// std::exp stay scalar. One register wide for the ISA compiled for: a wider
// vector type than the ISA has is lowered element by element for compares
// and selects (through the stack), which is slower than scalar code.
// Accuracy (checked by the unit tests against <cmath>): exp ~1 ulp, tanh and
// erf a few ulp.
#pragma once

#include <cstdint>
#include <cstring>

namespace ge::hal::loop {

#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif
using VF = float __attribute__((vector_size(4 * kLanes)));
using VI = int32_t __attribute__((vector_size(4 * kLanes)));
using VU = uint32_t __attribute__((vector_size(4 * kLanes)));

[[gnu::always_inline]] inline VF Splat(float v) { return VF{} + v; }
[[gnu::always_inline]] inline VF Abs(VF x) { return (VF)((VU)x & 0x7fffffffu); }
[[gnu::always_inline]] inline VF CopySign(VF mag, VF sign) {
  return (VF)(((VU)mag & 0x7fffffffu) | ((VU)sign & 0x80000000u));
}
// NaN passes through both comparisons, so it propagates.
[[gnu::always_inline]] inline VF Clamp(VF x, float lo, float hi) {
  x = x < lo ? Splat(lo) : x;
  return x > hi ? Splat(hi) : x;
}

// Cephes expf: exp(x) = 2^n * exp(r), |r| <= ln2/2, degree-6 polynomial.
// The clamp keeps n in [-150, 128]; 2^n is applied as two halves so that
// underflow to denormals/zero and overflow to inf come out of the multiply.
[[gnu::always_inline]] inline VF Exp(VF x) {
  const VF c = Clamp(x, -104.0f, 89.0f);
  const float kMagic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer held in the low mantissa bits
  const VF t = c * 1.44269504088896341f + kMagic;
  const VF n = t - kMagic;
  const VI ni = (VI)((VU)t - 0x4B400000u);
  const VF r = c - n * 0.693359375f - n * -2.12194440e-4f;  // ln2 split in two for an exact first product
  VF p = 1.9875691500e-4f * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  const VI h = ni >> 1;
  const VF s1 = (VF)((VU)(h + 127) << 23);
  const VF s2 = (VF)((VU)(ni - h + 127) << 23);
  return p * s1 * s2;
}

// Cephes tanhf: an odd polynomial below 0.625, 1 - 2/(exp(2|x|)+1) above
// (where it has no cancellation).
[[gnu::always_inline]] inline VF Tanh(VF x) {
  const VF ax = Abs(x);
  const VF z = x * x;
  VF small = -5.70498872745e-3f * z + 2.06390887954e-2f;
  small = small * z - 5.37397155531e-2f;
  small = small * z + 1.33314422036e-1f;
  small = small * z - 3.33332819422e-1f;
  small = small * z * x + x;
  const VF large = CopySign(1.0f - 2.0f / (Exp(2.0f * ax) + 1.0f), x);
  return ax < 0.625f ? small : large;
}

// The rational approximation x*P(x^2)/Q(x^2) on [-4, 4] that Eigen and XLA
// use for f32 erf (|erf| rounds to 1 outside).
[[gnu::always_inline]] inline VF Erf(VF a) {
  const VF x = Clamp(a, -4.0f, 4.0f);
  const VF x2 = x * x;
  VF p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
  p = x2 * p - 2.10102402082508e-06f;
  p = x2 * p - 5.69250639462346e-05f;
  p = x2 * p - 7.34990630326855e-04f;
  p = x2 * p - 2.95459980854025e-03f;
  p = x2 * p - 1.60960333262415e-02f;
  VF q = x2 * -1.45660718464996e-05f - 2.13374055278905e-04f;
  q = x2 * q - 1.68282697438203e-03f;
  q = x2 * q - 7.37332916720468e-03f;
  q = x2 * q - 1.42647390514189e-02f;
  return x * p / q;
}

// GELU: 0.5 x (1 + erf(x / sqrt 2)), and its tanh approximation
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
[[gnu::always_inline]] inline VF GeluErf(VF x) { return 0.5f * x * (1.0f + Erf(x * 0.70710678118654752f)); }
[[gnu::always_inline]] inline VF GeluTanh(VF x) {
  return 0.5f * x * (1.0f + Tanh(0.79788456080286536f * (x + 0.044715f * x * x * x)));
}

// Function objects for MapVF.
struct ExpFn {
  [[gnu::always_inline]] VF operator()(VF x) const { return Exp(x); }
};
struct TanhFn {
  [[gnu::always_inline]] VF operator()(VF x) const { return Tanh(x); }
};
struct ErfFn {
  [[gnu::always_inline]] VF operator()(VF x) const { return Erf(x); }
};
struct GeluErfFn {
  [[gnu::always_inline]] VF operator()(VF x) const { return GeluErf(x); }
};
struct GeluTanhFn {
  [[gnu::always_inline]] VF operator()(VF x) const { return GeluTanh(x); }
};
struct LeakyReluFn {
  float alpha;
  [[gnu::always_inline]] VF operator()(VF x) const { return x < 0.0f ? x * alpha : x; }
};
struct HardSigmoidFn {
  float alpha, beta;
  [[gnu::always_inline]] VF operator()(VF x) const { return Clamp(x * alpha + beta, 0.0f, 1.0f); }
};

// y[i] = f(x[i]) a vector at a time; the tail goes through a padded
// register. Loads precede stores in each block, so x == y is fine.
template <typename F>
[[gnu::always_inline]] inline void MapVF(const float* x, float* y, int64_t n, F f) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    VF v;
    std::memcpy(&v, x + i, sizeof v);
    v = f(v);
    std::memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    VF v = {};
    const size_t rest = static_cast<size_t>(n - i) * sizeof(float);
    std::memcpy(&v, x + i, rest);
    v = f(v);
    std::memcpy(y + i, &v, rest);
  }
}

}  // namespace ge::hal::loop
