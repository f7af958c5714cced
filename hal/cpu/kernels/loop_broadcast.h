// Row plans: an output written in row-major order whose inputs are read
// through per-axis strides. They serve ONNX multidirectional (numpy)
// broadcasting (strides 0 where an input is broadcast) and strided copies
// (Transpose, Slice, Expand, Tile: any strides), planned once at Create.
//
// For broadcasting the output shape is collapsed: axes of size 1 are dropped and neighbouring
// axes merged where every input is either full in both or broadcast in both.
// What is left is a short list of dims with per-input strides (0 where
// broadcast). The innermost collapsed axis is a row: each input is either
// contiguous along it (stride 1) or constant (stride 0), so a row is one
// vectorisable loop. Same-shape and scalar operands collapse to a single row
// over everything; [1,128,256] + [256] to rows of 256 with stride 0 between
// rows for the second input; [128,256] - [128,1] to rows of 256 with a
// constant second operand.
#pragma once

#include <array>
#include <vector>

#include "kernels/loop_common.h"

namespace ge::hal::loop {

// The numpy broadcast of shapes; error naming both when they are
// incompatible.
inline Result<std::vector<int64_t>> BroadcastShape(const KernelSpec& spec,
                                                   const std::vector<const std::vector<int64_t>*>& shapes) {
  size_t rank = 0;
  for (const auto* s : shapes) rank = std::max(rank, s->size());
  std::vector<int64_t> out(rank, 1);
  for (const auto* s : shapes) {
    const size_t pad = rank - s->size();
    for (size_t i = 0; i < s->size(); ++i) {
      const int64_t d = (*s)[i];
      int64_t& o = out[pad + i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string all;
      for (const auto* t : shapes) {
        if (!all.empty()) all += " vs ";
        all += DimsStr(*t);
      }
      return Bad(spec, "shapes " + all + " do not broadcast");
    }
  }
  return out;
}

template <int N>
struct RowPlan {
  int rank = 1;                                            // collapsed rank, >= 1
  std::array<int64_t, kMaxRank> dims{};                    // collapsed output dims
  std::array<std::array<int64_t, kMaxRank>, N> strides{};  // per input, in elements; 0 = broadcast
  int64_t total = 0;                                       // output elements
  int64_t row = 0;                                         // dims[rank - 1]
  std::array<bool, N> contiguous{};                        // input stride 1 along a row (0: constant there)
};

// ins[k] must broadcast to out (checked: out is what BroadcastShape gives
// when it is compared by the caller).
template <int N>
RowPlan<N> PlanBroadcast(const std::array<const std::vector<int64_t>*, N>& ins, const std::vector<int64_t>& out) {
  RowPlan<N> p;
  p.total = NumElements(out);
  const size_t r = out.size();
  // Kept axes: output dim > 1. full[k] says whether input k spans the axis.
  std::vector<int64_t> dims;
  std::vector<std::array<bool, N>> full;
  for (size_t i = 0; i < r; ++i) {
    if (out[i] == 1) continue;
    std::array<bool, N> f{};
    for (int k = 0; k < N; ++k) {
      const auto& s = *ins[k];
      const size_t pad = r - s.size();
      f[k] = i >= pad && s[i - pad] != 1;
    }
    if (!dims.empty() && full.back() == f) {
      dims.back() *= out[i];
    } else {
      dims.push_back(out[i]);
      full.push_back(f);
    }
  }
  if (dims.empty()) {  // every dim is 1: one element
    dims.push_back(1);
    full.push_back(std::array<bool, N>{});
  }
  p.rank = static_cast<int>(dims.size());
  for (int k = 0; k < N; ++k) {
    int64_t s = 1;
    for (int j = p.rank; j-- > 0;) {
      p.strides[k][j] = full[j][k] ? s : 0;
      if (full[j][k]) s *= dims[j];
    }
    p.contiguous[k] = full[p.rank - 1][k];
  }
  for (int j = 0; j < p.rank; ++j) p.dims[j] = dims[j];
  p.row = dims.back();
  return p;
}

// Calls row(off, out_off, len) for rows [first, last) of the plan, where
// off[k] is input k's element offset at the row start.
template <int N, typename RowFn>
inline void RowsOf(const RowPlan<N>& p, int64_t first, int64_t last, RowFn& row) {
  std::array<int64_t, N> off{};
  if (p.rank == 2) {  // the common [rows, row]: offsets are multiples of the row stride
    for (int64_t r = first; r < last; ++r) {
      for (int k = 0; k < N; ++k) off[k] = r * p.strides[k][0];
      row(off, r * p.row, p.row);
    }
    return;
  }
  const int outer = p.rank - 1;
  std::array<int64_t, kMaxRank> idx{};
  if (first != 0) {  // divisions only where a thread starts mid-way
    int64_t rest = first;
    for (int d = outer; d-- > 0;) {
      idx[d] = rest % p.dims[d];
      rest /= p.dims[d];
      for (int k = 0; k < N; ++k) off[k] += idx[d] * p.strides[k][d];
    }
  }
  for (int64_t r = first; r < last; ++r) {
    row(off, r * p.row, p.row);
    for (int d = outer; d-- > 0;) {
      if (++idx[d] < p.dims[d]) {
        for (int k = 0; k < N; ++k) off[k] += p.strides[k][d];
        break;
      }
      idx[d] = 0;
      for (int k = 0; k < N; ++k) off[k] -= (p.dims[d] - 1) * p.strides[k][d];
    }
  }
}

// Runs the whole plan: one call for a single row (same shape, scalar
// operands), an odometer over rows otherwise; large outputs are split
// across threads by row blocks, or by pieces of a long single row.
template <int N, typename RowFn>
inline void ForEachRow(const RowPlan<N>& p, RowFn&& row) {
  if (p.total == 0) return;
  const int64_t rows = p.total / p.row;
  if (p.total < kParallelMin) {
    if (rows == 1) {
      const std::array<int64_t, N> zero{};
      row(zero, int64_t{0}, p.row);
    } else {
      RowsOf(p, 0, rows, row);
    }
    return;
  }
  constexpr int64_t kPiece = 16384;
  if (p.row >= kPiece) {  // few long rows: split each row into pieces
    const int64_t pieces = (p.row + kPiece - 1) / kPiece;
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < rows * pieces; ++u) {
      const int64_t r = u / pieces, b = (u % pieces) * kPiece, len = std::min(kPiece, p.row - b);
      auto sub = [&](const std::array<int64_t, N>& off, int64_t out_off, int64_t) {
        std::array<int64_t, N> o = off;
        for (int k = 0; k < N; ++k) o[k] += b * p.strides[k][p.rank - 1];
        row(o, out_off + b, len);
      };
      RowsOf(p, r, r + 1, sub);
    }
  } else {  // many short rows: blocks of rows
    const int64_t per = std::max<int64_t>(1, kPiece / p.row);
    const int64_t blocks = (rows + per - 1) / per;
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < blocks; ++u) RowsOf(p, u * per, std::min(rows, (u + 1) * per), row);
  }
}

// A gather view: out (row-major, dims[0..n)) reads in[sum i_d * strides[d]]
// (strides in elements, any sign). Axes of size 1 are dropped and axis d
// merged into d+1 when strides[d] == strides[d+1] * dims[d+1]. Does not
// allocate (Slice plans per run when its operands are not constant); false
// when more than kMaxRank axes remain.
inline bool PlanStrided(const int64_t* dims, const int64_t* strides, int n, RowPlan<1>& p) {
  p = RowPlan<1>{};
  p.total = 1;
  int r = 0;
  for (int d = 0; d < n; ++d) {
    p.total *= dims[d];
    if (dims[d] == 1) continue;
    if (r > 0 && p.strides[0][r - 1] == strides[d] * dims[d]) {
      p.dims[r - 1] *= dims[d];
      p.strides[0][r - 1] = strides[d];
      continue;
    }
    if (r == kMaxRank) return false;
    p.dims[r] = dims[d];
    p.strides[0][r] = strides[d];
    ++r;
  }
  if (r == 0) {
    p.dims[0] = 1;
    p.strides[0][0] = 0;
    r = 1;
  }
  p.rank = r;
  p.row = p.dims[r - 1];
  p.contiguous[0] = p.strides[0][r - 1] == 1;
  return true;
}

// out[...] = in[...] through a gather plan, rows as memcpy (stride 1), fill
// (stride 0) or a strided loop; U is the element's unsigned type.
template <typename U>
inline void StridedCopy(const RowPlan<1>& p, const U* in, U* out) {
  const int64_t s = p.strides[0][p.rank - 1];
  if (s == 1) {
    ForEachRow(p, [&](const std::array<int64_t, 1>& off, int64_t o, int64_t n) {
      std::memcpy(out + o, in + off[0], static_cast<size_t>(n) * sizeof(U));
    });
  } else if (s == 0) {
    ForEachRow(p, [&](const std::array<int64_t, 1>& off, int64_t o, int64_t n) {
      std::fill(out + o, out + o + n, in[off[0]]);
    });
  } else {
    ForEachRow(p, [&](const std::array<int64_t, 1>& off, int64_t o, int64_t n) {
      const U* src = in + off[0];
      U* dst = out + o;
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i * s];
    });
  }
}

}  // namespace ge::hal::loop
