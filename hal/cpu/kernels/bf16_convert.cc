// The loops of bf16_convert.h: integer rounding on the float's bits, the
// same arithmetic as FloatToBFloat16, 16 (AVX-512) or 8 (AVX2) values at a
// time; the tails go through the scalar functions; loop::ParallelFor spreads large
// buffers over the threads.
#include "kernels/bf16_convert.h"

#include <immintrin.h>

#include "ge_base/bfloat16.h"
#include "kernels/loop_common.h"

// GCC 12's AVX-512 shift/convert wrappers pass _mm512_undefined_epi32() as
// the unused merge source, which -Wmaybe-uninitialized reports.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace ge::hal::bf16 {
namespace {

GE_TARGET_AVX512 void FromFloatAvx512(const float* x, uint16_t* y, int64_t n, bool truncate) {
  const __m512i abs_mask = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000);
  const __m512i one = _mm512_set1_epi32(1), bias = _mm512_set1_epi32(0x7fff), quiet = _mm512_set1_epi32(0x40);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i u = _mm512_loadu_si512(x + i);
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, abs_mask), inf);
    __m512i r = u;
    if (!truncate) r = _mm512_add_epi32(u, _mm512_add_epi32(bias, _mm512_and_si512(_mm512_srli_epi32(u, 16), one)));
    r = _mm512_srli_epi32(r, 16);
    r = _mm512_mask_or_epi32(r, nan, _mm512_srli_epi32(u, 16), quiet);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), _mm512_cvtepi32_epi16(r));
  }
  for (; i < n; ++i) y[i] = FloatToBFloat16(x[i], truncate);
}

GE_TARGET_AVX2 void FromFloatAvx2(const float* x, uint16_t* y, int64_t n, bool truncate) {
  const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
  const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7fff), quiet = _mm256_set1_epi32(0x40);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i h[2];
    for (int k = 0; k < 2; ++k) {
      const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 8 * k));
      // |u| > inf as signed 32-bit compare: both sides are below 2^31.
      const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, abs_mask), inf);
      __m256i r = u;
      if (!truncate) r = _mm256_add_epi32(u, _mm256_add_epi32(bias, _mm256_and_si256(_mm256_srli_epi32(u, 16), one)));
      r = _mm256_srli_epi32(r, 16);
      h[k] = _mm256_blendv_epi8(r, _mm256_or_si256(_mm256_srli_epi32(u, 16), quiet), nan);
    }
    // Values are below 2^16, so unsigned saturation packs them unchanged;
    // packus works per 128-bit lane, the permute puts the quarters in order.
    const __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(h[0], h[1]), 0xd8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), p);
  }
  for (; i < n; ++i) y[i] = FloatToBFloat16(x[i], truncate);
}

void FromFloatBaseline(const float* x, uint16_t* y, int64_t n, bool truncate) {
  for (int64_t i = 0; i < n; ++i) y[i] = FloatToBFloat16(x[i], truncate);
}

GE_TARGET_AVX512 void ToFloatAvx512(const uint16_t* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i w = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)));
    _mm512_storeu_si512(y + i, _mm512_slli_epi32(w, 16));
  }
  for (; i < n; ++i) y[i] = BFloat16ToFloat(x[i]);
}

GE_TARGET_AVX2 void ToFloatAvx2(const uint16_t* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), _mm256_slli_epi32(w, 16));
  }
  for (; i < n; ++i) y[i] = BFloat16ToFloat(x[i]);
}

void ToFloatBaseline(const uint16_t* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = BFloat16ToFloat(x[i]);
}

}  // namespace

void FromFloat(const float* x, uint16_t* y, int64_t n, bool truncate, Isa isa) {
  auto run = isa == Isa::kAvx512 ? FromFloatAvx512 : isa == Isa::kAvx2 ? FromFloatAvx2 : FromFloatBaseline;
  loop::ParallelFor(n, [&](int64_t b, int64_t e) { run(x + b, y + b, e - b, truncate); });
}

void FromFloat(const float* x, uint16_t* y, int64_t n, bool truncate) { FromFloat(x, y, n, truncate, BestIsa()); }

void ToFloat(const uint16_t* x, float* y, int64_t n, Isa isa) {
  auto run = isa == Isa::kAvx512 ? ToFloatAvx512 : isa == Isa::kAvx2 ? ToFloatAvx2 : ToFloatBaseline;
  loop::ParallelFor(n, [&](int64_t b, int64_t e) { run(x + b, y + b, e - b); });
}

void ToFloat(const uint16_t* x, float* y, int64_t n) { ToFloat(x, y, n, BestIsa()); }

}  // namespace ge::hal::bf16
