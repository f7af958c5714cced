// The loops of activation_loop.h: one intrinsics body per ISA (the vector
// width and the way 2^n is applied differ), the function picked by template.
#include "kernels/activation_loop.h"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>

// GCC 12's AVX-512 max/roundscale/scalef wrappers pass _mm512_undefined_ps()
// as the unused merge source, which -Wmaybe-uninitialized reports.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace ge::hal::act {
namespace {

// Below this many values one thread does it all.
constexpr int64_t kActParallelMin = int64_t{1} << 14;

// Cephes expf's constants: exp(x) = 2^n exp(r), n = round(x log2 e),
// r = x - n ln2 (ln2 in two parts so the first product is exact).
constexpr float kLog2e = 1.44269504088896341f, kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
constexpr float kP0 = 1.9875691500e-4f, kP1 = 1.3981999507e-3f, kP2 = 8.3334519073e-3f, kP3 = 4.1665795894e-2f,
                kP4 = 1.6666665459e-1f, kP5 = 5.0000001201e-1f;

GE_TARGET_AVX512 inline __m512 Exp16(__m512 x) {
  // Clamped to where n fits scalef: below, exp is 0; above, inf (so
  // sigmoid(-large) is 0). max(lo, x) and min(hi, x) return x when it is
  // NaN, so NaN goes through.
  x = _mm512_min_ps(_mm512_set1_ps(104.0f), _mm512_max_ps(_mm512_set1_ps(-104.0f), x));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(kLog2e)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Hi), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Lo), r);
  __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(kP0), r, _mm512_set1_ps(kP1));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kP2));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kP3));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kP4));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kP5));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_scalef_ps(p, n);  // 2^n without building the exponent bits: no overflow at n = 128
}

template <Fn F>
GE_TARGET_AVX512 inline __m512 Apply16(__m512 v) {
  const __m512 d = _mm512_add_ps(_mm512_set1_ps(1.0f), Exp16(_mm512_sub_ps(_mm512_setzero_ps(), v)));
  // A divide measured faster here than rcp14 plus a Newton step.
  return _mm512_div_ps(F == Fn::kSwish ? v : _mm512_set1_ps(1.0f), d);
}

template <Fn F>
GE_TARGET_AVX512 void Avx512(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, Apply16<F>(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(y + i, m, Apply16<F>(_mm512_maskz_loadu_ps(m, x + i)));
  }
}

GE_TARGET_AVX2 inline __m256 Exp8(__m256 x) {
  // Without scalef 2^n is built in the exponent bits, so n stays in
  // [-126, 127]: exp(-87.3) is the smallest normal float; above 88.3 the
  // result is set to inf at the end.
  const __m256 big = _mm256_cmp_ps(x, _mm256_set1_ps(88.3f), _CMP_GT_OQ);
  x = _mm256_min_ps(_mm256_set1_ps(88.3f), _mm256_max_ps(_mm256_set1_ps(-87.3f), x));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(kLog2e)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Hi), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Lo), r);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(kP0), r, _mm256_set1_ps(kP1));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kP2));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kP3));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kP4));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kP5));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_blendv_ps(_mm256_mul_ps(p, _mm256_castsi256_ps(e)), _mm256_set1_ps(HUGE_VALF), big);
}

template <Fn F>
GE_TARGET_AVX2 inline __m256 Apply8(__m256 v) {
  const __m256 d = _mm256_add_ps(_mm256_set1_ps(1.0f), Exp8(_mm256_sub_ps(_mm256_setzero_ps(), v)));
  return _mm256_div_ps(F == Fn::kSwish ? v : _mm256_set1_ps(1.0f), d);
}

template <Fn F>
GE_TARGET_AVX2 void Avx2(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, Apply8<F>(_mm256_loadu_ps(x + i)));
  if (i < n) {  // the tail through a padded register
    alignas(32) float t[8] = {};
    const size_t rest = static_cast<size_t>(n - i) * sizeof(float);
    std::memcpy(t, x + i, rest);
    _mm256_store_ps(t, Apply8<F>(_mm256_load_ps(t)));
    std::memcpy(y + i, t, rest);
  }
}

template <Fn F>
void Baseline(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float s = 1.0f / (1.0f + std::exp(-x[i]));
    y[i] = F == Fn::kSwish ? x[i] * s : s;
  }
}

using LoopFn = void (*)(const float*, float*, int64_t);

template <Fn F>
LoopFn ForIsa(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return Avx512<F>;
    case Isa::kAvx2: return Avx2<F>;
    case Isa::kBaseline: break;
  }
  return Baseline<F>;
}

}  // namespace

void Run(Fn f, const float* x, float* y, int64_t n, Isa isa) {
  const LoopFn loop = f == Fn::kSwish ? ForIsa<Fn::kSwish>(isa) : ForIsa<Fn::kSigmoid>(isa);
  if (n < kActParallelMin) {
    loop(x, y, n);
    return;
  }
#pragma omp parallel
  {
    // Cut at multiples of 16 values (a 64-byte line) so no two threads write one line.
    const int64_t lines = (n + 15) / 16, nt = omp_get_num_threads(), id = omp_get_thread_num();
    const int64_t b = std::min(n, lines * id / nt * 16), e = std::min(n, lines * (id + 1) / nt * 16);
    if (b < e) loop(x + b, y + b, e - b);
  }
}

void Run(Fn f, const float* x, float* y, int64_t n) { Run(f, x, y, n, BestIsa()); }

}  // namespace ge::hal::act
