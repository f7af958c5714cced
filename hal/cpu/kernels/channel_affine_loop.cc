// The loops of channel_affine_loop.h, one template per layout, compiled
// three times (AVX-512, AVX2+FMA, baseline x86-64; kernels/isa.h): the
// always-inline body takes the ISA of the function it is inlined into, so
// each copy is vectorised for its ISA.
#include "kernels/channel_affine_loop.h"

#include <omp.h>

#include <algorithm>

namespace ge::hal::affine {
namespace {

// Below this many elements one thread does it all: the fork/join of the
// OpenMP team costs more than the second core saves.
constexpr int64_t kAffineParallelMin = int64_t{1} << 15;

constexpr int kPlain = 0, kLast = 1;  // layout template values; 8 and 16 are the blocks

using UnitsFn = void (*)(const Geometry&, const float*, const float*, const float*, float*, int64_t, int64_t);

template <bool kRelu>
[[gnu::always_inline]] inline float Act(float v) {
  if constexpr (kRelu) return v > 0.0f ? v : 0.0f;
  return v;
}

template <int kLayout, bool kRelu>
[[gnu::always_inline]] inline void Body(const Geometry& g, const float* x, const float* s, const float* t, float* y,
                                        int64_t u0, int64_t u1) {
  if constexpr (kLayout == kPlain) {
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t n = u / g.c, c = u % g.c;
      const float a = s[n * g.scale_stride + c], b = t[n * g.shift_stride + c];
      const float* xi = x + n * g.x_image + c * g.spatial;
      float* yi = y + n * g.y_image + c * g.spatial;
      for (int64_t i = 0; i < g.spatial; ++i) yi[i] = Act<kRelu>(xi[i] * a + b);
    }
  } else if constexpr (kLayout == kLast) {
    const int64_t c = g.c;
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t n = u / g.spatial, p = u % g.spatial;
      const float* a = s + n * g.scale_stride;
      const float* b = t + n * g.shift_stride;
      const float* xi = x + n * g.x_image + p * g.x_pixel;
      float* yi = y + n * g.y_image + p * g.y_pixel;
      for (int64_t k = 0; k < c; ++k) yi[k] = Act<kRelu>(xi[k] * a[k] + b[k]);
    }
  } else {
    constexpr int64_t B = kLayout;
    const int64_t blocks = g.c / B;
    // Walk slab by slab (one image's block of B channels over all pixels), so
    // the B scales and shifts are loaded once per slab.
    for (int64_t u = u0; u < u1;) {
      const int64_t slab = u / g.spatial, p0 = u % g.spatial;
      const int64_t p1 = std::min(g.spatial, p0 + (u1 - u));
      const int64_t n = slab / blocks, cb = slab % blocks;
      float a[B], b[B];
      for (int64_t k = 0; k < B; ++k) {
        a[k] = s[n * g.scale_stride + cb * B + k];
        b[k] = t[n * g.shift_stride + cb * B + k];
      }
      const float* xi = x + n * g.x_image + cb * g.spatial * B;
      float* yi = y + n * g.y_image + cb * g.spatial * B;
      for (int64_t p = p0; p < p1; ++p)
        for (int64_t k = 0; k < B; ++k) yi[p * B + k] = Act<kRelu>(xi[p * B + k] * a[k] + b[k]);
      u += p1 - p0;
    }
  }
}

template <int L, bool R>
GE_TARGET_AVX512 void Avx512(const Geometry& g, const float* x, const float* s, const float* t, float* y, int64_t u0,
                             int64_t u1) {
  Body<L, R>(g, x, s, t, y, u0, u1);
}

template <int L, bool R>
GE_TARGET_AVX2 void Avx2(const Geometry& g, const float* x, const float* s, const float* t, float* y, int64_t u0,
                         int64_t u1) {
  Body<L, R>(g, x, s, t, y, u0, u1);
}

template <int L, bool R>
void Baseline(const Geometry& g, const float* x, const float* s, const float* t, float* y, int64_t u0, int64_t u1) {
  Body<L, R>(g, x, s, t, y, u0, u1);
}

template <int L, bool R>
UnitsFn ForIsa(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return Avx512<L, R>;
    case Isa::kAvx2: return Avx2<L, R>;
    case Isa::kBaseline: break;
  }
  return Baseline<L, R>;
}

template <int L>
UnitsFn ForAct(bool relu, Isa isa) {
  return relu ? ForIsa<L, true>(isa) : ForIsa<L, false>(isa);
}

UnitsFn Pick(const Geometry& g, Isa isa) {
  switch (g.block) {
    case 0: return ForAct<kPlain>(g.relu, isa);
    case 8: return ForAct<8>(g.relu, isa);
    case 16: return ForAct<16>(g.relu, isa);
    default: return ForAct<kLast>(g.relu, isa);
  }
}

Geometry Resolved(const Geometry& given) {
  Geometry g = given;
  if (g.x_image == 0) g.x_image = g.c * g.spatial;
  if (g.y_image == 0) g.y_image = g.c * g.spatial;
  if (g.x_pixel == 0) g.x_pixel = g.c;
  if (g.y_pixel == 0) g.y_pixel = g.c;
  return g;
}

}  // namespace

bool Handles(const Geometry& g) {
  if (g.n < 1 || g.c < 1 || g.spatial < 1) return false;
  if (g.block == 0 || g.block == -1) return true;
  return (g.block == 8 || g.block == 16) && g.c % g.block == 0;
}

// Work units, the grain of the thread split: a (n, c) plane when plain, a
// pixel's C channels when channels last, a pixel's block of B channels when
// blocked (numbered n, channel block, pixel).
int64_t Units(const Geometry& g) {
  if (g.block == 0) return g.n * g.c;
  if (g.block < 0) return g.n * g.spatial;
  return g.n * (g.c / g.block) * g.spatial;
}

void RunUnits(const Geometry& given, const float* x, const float* scale, const float* shift, float* y, int64_t u0,
              int64_t u1) {
  const Geometry g = Resolved(given);
  Pick(g, BestIsa())(g, x, scale, shift, y, u0, u1);
}

void Run(const Geometry& given, const float* x, const float* scale, const float* shift, float* y, Isa isa) {
  const Geometry g = Resolved(given);
  const UnitsFn f = Pick(g, isa);
  const int64_t units = Units(g);
  if (g.n * g.c * g.spatial < kAffineParallelMin || units < 2) {
    f(g, x, scale, shift, y, 0, units);
    return;
  }
#pragma omp parallel
  {
    const int64_t nt = omp_get_num_threads(), id = omp_get_thread_num();
    f(g, x, scale, shift, y, units * id / nt, units * (id + 1) / nt);
  }
}

void Run(const Geometry& g, const float* x, const float* scale, const float* shift, float* y) {
  Run(g, x, scale, shift, y, BestIsa());
}

}  // namespace ge::hal::affine
