// The loops of global_avg_pool.h, compiled per ISA (kernels/isa.h). Each
// work unit sums whole channels, so the threads never combine partial sums:
// a (n, c) plane when plain, an image's channel block when blocked, an
// image's run of 16 channels when channels last (one cache line per pixel).
#include "kernels/global_avg_pool.h"

#include <omp.h>

#include <algorithm>
#include <optional>

#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

constexpr int64_t kGapParallelMin = int64_t{1} << 15;  // elements; below it one thread
constexpr int64_t kLastRun = 16;                    // channels per unit, channels last
constexpr int kPlain = 0, kLast = 1;

using UnitsFn = void (*)(const GapGeometry&, const float*, float*, int64_t, int64_t);

int64_t Units(const GapGeometry& g) {
  if (g.block == 0) return g.n * g.c;
  if (g.block < 0) return g.n * ((g.c + kLastRun - 1) / kLastRun);
  return g.n * (g.c / g.block);
}

template <int kLayout>
[[gnu::always_inline]] inline void Body(const GapGeometry& g, const float* x, float* y, int64_t u0, int64_t u1) {
  const float inv = 1.0f / static_cast<float>(g.spatial);
  if constexpr (kLayout == kPlain) {
    for (int64_t u = u0; u < u1; ++u) {
      const float* xi = x + u * g.spatial;
      float acc = 0.0f;
#pragma omp simd reduction(+ : acc)
      for (int64_t i = 0; i < g.spatial; ++i) acc += xi[i];
      y[u] = acc * inv;
    }
  } else {
    constexpr int64_t W = kLayout == kLast ? kLastRun : kLayout;  // channels summed side by side
    const int64_t runs = kLayout == kLast ? (g.c + kLastRun - 1) / kLastRun : g.c / kLayout;
    const int64_t stride = kLayout == kLast ? g.c : W;  // elements between a channel's pixels
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t n = u / runs, r = u % runs;
      const int64_t c0 = r * W, w = std::min(W, g.c - c0);
      const float* xi = kLayout == kLast ? x + n * g.c * g.spatial + c0 : x + (n * runs + r) * g.spatial * W;
      float acc[W] = {};
      if (w == W) {
        for (int64_t p = 0; p < g.spatial; ++p)
          for (int64_t k = 0; k < W; ++k) acc[k] += xi[p * stride + k];
      } else {
        for (int64_t p = 0; p < g.spatial; ++p)
          for (int64_t k = 0; k < w; ++k) acc[k] += xi[p * stride + k];
      }
      for (int64_t k = 0; k < w; ++k) y[n * g.c + c0 + k] = acc[k] * inv;
    }
  }
}

template <int L>
GE_TARGET_AVX512 void Avx512(const GapGeometry& g, const float* x, float* y, int64_t u0, int64_t u1) {
  Body<L>(g, x, y, u0, u1);
}
template <int L>
GE_TARGET_AVX2 void Avx2(const GapGeometry& g, const float* x, float* y, int64_t u0, int64_t u1) {
  Body<L>(g, x, y, u0, u1);
}
template <int L>
void Baseline(const GapGeometry& g, const float* x, float* y, int64_t u0, int64_t u1) {
  Body<L>(g, x, y, u0, u1);
}

template <int L>
UnitsFn ForIsa(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return Avx512<L>;
    case Isa::kAvx2: return Avx2<L>;
    case Isa::kBaseline: break;
  }
  return Baseline<L>;
}

UnitsFn Pick(const GapGeometry& g, Isa isa) {
  switch (g.block) {
    case 0: return ForIsa<kPlain>(isa);
    case 8: return ForIsa<8>(isa);
    case 16: return ForIsa<16>(isa);
    default: return ForIsa<kLast>(isa);
  }
}

std::optional<GapGeometry> GeometryOf(const KernelSpec& spec) {
  if (spec.op != "GlobalAveragePool" || spec.inputs.size() != 1 || spec.outputs.size() != 1) return {};
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  if (x.dtype != DataType::kFloat32 || y.dtype != DataType::kFloat32 || x.dims.size() < 3) return {};
  if (x.channel_block != y.channel_block || y.dims.size() != x.dims.size()) return {};
  if (y.dims[0] != x.dims[0] || y.dims[1] != x.dims[1] || y.NumElements() != x.dims[0] * x.dims[1]) return {};
  GapGeometry g;
  g.n = x.dims[0], g.c = x.dims[1], g.spatial = loop::Product(x.dims, 2, x.dims.size()), g.block = x.channel_block;
  const bool layout_ok = g.block == 0 || g.block == kChannelsLast || ((g.block == 8 || g.block == 16) && g.c % g.block == 0);
  if (!layout_ok || g.n < 1 || g.c < 1 || g.spatial < 1) return {};
  return g;
}

}  // namespace

void GlobalAvgPool(const GapGeometry& g, const float* x, float* y, Isa isa) {
  const UnitsFn f = Pick(g, isa);
  const int64_t units = Units(g);
  if (g.n * g.c * g.spatial < kGapParallelMin || units < 2) {
    f(g, x, y, 0, units);
    return;
  }
#pragma omp parallel
  {
    const int64_t nt = omp_get_num_threads(), id = omp_get_thread_num();
    f(g, x, y, units * id / nt, units * (id + 1) / nt);
  }
}

bool OwnGlobalAvgPool(const KernelSpec& spec) { return GeometryOf(spec).has_value(); }

Result<std::unique_ptr<Kernel>> CreateOwnGlobalAvgPool(const KernelSpec& spec) {
  const std::optional<GapGeometry> g = GeometryOf(spec);
  if (!g) return loop::NotSupported(spec, "not an f32 global average pool in a layout the loop reads");
  const Isa isa = BestIsa();
  return loop::MakeKernel([g = *g, isa](const void* const* in, void* const* out) {
    GlobalAvgPool(g, static_cast<const float*>(in[0]), static_cast<float*>(out[0]), isa);
    return Status::Ok();
  });
}

}  // namespace ge::hal
