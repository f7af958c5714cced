// Data movement kernels: Transpose, Concat, Split, Slice, Gather, Pad, Tile.
//
// They move elements by size (any dtype of 1, 2, 4 or 8 bytes). Transpose,
// Slice and Tile are gather views planned as strided row copies
// (loop_broadcast.h); a transpose that moves the contiguous axis away from
// the innermost position goes through 2-D tiles instead. Concat and Split
// are a memcpy per (outer index, operand).
#include <omp.h>

#include <cmath>
#include <limits>

#include "cpu_kernels.h"
#include "kernels/loop_broadcast.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using Dims = std::vector<int64_t>;
using D = DataType;

Status CheckElementSize(const KernelSpec& spec, DataType t) {
  const size_t size = DataTypeSize(t);
  if (size != 1 && size != 2 && size != 4 && size != 8)
    return NotSupported(spec, std::string("dtype ") + DataTypeName(t) + " is not supported");
  return Status::Ok();
}

Status CheckSameDtype(const KernelSpec& spec, const TensorInfo& a, const TensorInfo& b, const char* what) {
  if (a.dtype != b.dtype)
    return Bad(spec, std::string(what) + " dtype " + DataTypeName(b.dtype) + " differs from input dtype " +
                         DataTypeName(a.dtype));
  return Status::Ok();
}

// Runs make.template operator()<U>() for the element size of t.
template <typename F>
Result<KernelPtr> BySize(DataType t, F&& make) {
  Result<KernelPtr> k = Internal("no kernel for element size " + std::to_string(DataTypeSize(t)));
  DispatchBySize(DataTypeSize(t), [&]<typename U>() { k = make.template operator()<U>(); });
  return k;
}

// ---- Transpose

struct TransposePlan {
  RowPlan<1> rows;  // out reads in through permuted strides
  // Tiled form, when the input's contiguous axis is the output's
  // second-to-last: out[.., a, b] = in[off + a + b * col_stride].
  bool tiled = false;
  int outer = 0;
  int64_t a = 0, b = 0, col_stride = 0;
};

Result<TransposePlan> PlanTranspose(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckElementSize(spec, x.dtype));
  GE_RETURN_IF_ERROR(CheckSameDtype(spec, x, spec.outputs[0], "output"));
  const int64_t r = static_cast<int64_t>(x.dims.size());
  Dims perm = spec.attrs.GetInts("perm");
  if (perm.empty())
    for (int64_t i = r; i-- > 0;) perm.push_back(i);
  if (static_cast<int64_t>(perm.size()) != r)
    return Bad(spec, "perm " + DimsStr(perm) + " does not match rank " + std::to_string(r));
  std::vector<bool> seen(r, false);
  Dims out, strides;
  const Dims in_strides = Strides(x.dims);
  for (int64_t p : perm) {
    GE_ASSIGN_OR_RETURN(int64_t ax, NormalizeAxis(spec, p, r, "perm entry"));
    if (seen[ax]) return Bad(spec, "perm " + DimsStr(perm) + " repeats an axis");
    seen[ax] = true;
    out.push_back(x.dims[ax]);
    strides.push_back(in_strides[ax]);
  }
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, out));
  TransposePlan plan;
  if (!PlanStrided(out.data(), strides.data(), static_cast<int>(r), plan.rows))
    return NotSupported(spec, "rank too large");
  const RowPlan<1>& p = plan.rows;
  const int k = p.rank;
  if (k >= 2 && p.strides[0][k - 1] != 1 && p.strides[0][k - 2] == 1) {
    plan.tiled = true;
    plan.outer = k - 2;
    plan.a = p.dims[k - 2];
    plan.b = p.dims[k - 1];
    plan.col_stride = p.strides[0][k - 1];
  }
  return plan;
}

// One [a, b] output block from an input block read down its columns, in
// tiles so that both sides stay in cache.
template <typename U>
void TransposeBlock(const U* in, U* out, int64_t a, int64_t b, int64_t col_stride) {
  constexpr int64_t kTile = 16;
  for (int64_t a0 = 0; a0 < a; a0 += kTile) {
    const int64_t a1 = std::min(a, a0 + kTile);
    for (int64_t b0 = 0; b0 < b; b0 += kTile) {
      const int64_t b1 = std::min(b, b0 + kTile);
      for (int64_t i = a0; i < a1; ++i)
        for (int64_t j = b0; j < b1; ++j) out[i * b + j] = in[i + j * col_stride];
    }
  }
}

template <typename U>
Result<KernelPtr> TransposeKernel(const TransposePlan& plan) {
  return MakeKernel([plan](const void* const* in, void* const* out) {
    const U* x = static_cast<const U*>(in[0]);
    U* y = static_cast<U*>(out[0]);
    if (!plan.tiled) {
      StridedCopy(plan.rows, x, y);
      return Status::Ok();
    }
    const RowPlan<1>& p = plan.rows;
    const int64_t block = plan.a * plan.b;
    if (block == 0) return Status::Ok();
    const int64_t blocks = p.total / block;
    std::array<int64_t, kMaxRank> idx{};
    int64_t off = 0;
    for (int64_t n = 0; n < blocks; ++n) {
      TransposeBlock(x + off, y + n * block, plan.a, plan.b, plan.col_stride);
      for (int d = plan.outer; d-- > 0;) {
        if (++idx[d] < p.dims[d]) {
          off += p.strides[0][d];
          break;
        }
        idx[d] = 0;
        off -= (p.dims[d] - 1) * p.strides[0][d];
      }
    }
    return Status::Ok();
  });
}

Result<KernelPtr> CreateTranspose(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(TransposePlan plan, PlanTranspose(spec));
  return BySize(spec.inputs[0].dtype, [&]<typename U>() { return TransposeKernel<U>(plan); });
}

// ---- Concat and Split: [outer, axis * inner] blocks per operand.

struct Blocks {
  int64_t outer = 1;
  std::vector<size_t> bytes;  // per operand, one outer step
};

// Checks that parts (the operands) stack along axis into whole.
Result<Blocks> PlanBlocks(const KernelSpec& spec, const TensorInfo& whole, const std::vector<const TensorInfo*>& parts,
                          int64_t axis_attr) {
  const int64_t r = static_cast<int64_t>(whole.dims.size());
  if (r == 0) return Bad(spec, "a scalar has no axis to " + std::string(spec.op == "Concat" ? "concatenate" : "split"));
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, axis_attr, r));
  int64_t sum = 0;
  Blocks b;
  b.outer = Product(whole.dims, 0, axis);
  const int64_t inner = Product(whole.dims, axis + 1, whole.dims.size());
  const size_t esize = DataTypeSize(whole.dtype);
  for (size_t i = 0; i < parts.size(); ++i) {
    const TensorInfo& t = *parts[i];
    if (t.dtype != whole.dtype)
      return Bad(spec, "operand " + std::to_string(i) + " has dtype " + DataTypeName(t.dtype) + ", expected " +
                           DataTypeName(whole.dtype));
    bool ok = static_cast<int64_t>(t.dims.size()) == r;
    for (int64_t d = 0; ok && d < r; ++d) ok = d == axis || t.dims[d] == whole.dims[d];
    if (!ok)
      return Bad(spec, "operand " + std::to_string(i) + " " + DimsStr(t.dims) + " does not match " +
                           DimsStr(whole.dims) + " outside axis " + std::to_string(axis));
    sum += t.dims[axis];
    b.bytes.push_back(static_cast<size_t>(t.dims[axis] * inner) * esize);
  }
  if (sum != whole.dims[axis])
    return Bad(spec, "operands add up to " + std::to_string(sum) + " along axis " + std::to_string(axis) + ", not " +
                         std::to_string(whole.dims[axis]));
  return b;
}

Result<Blocks> PlanConcat(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, SIZE_MAX, 1, 1));
  std::vector<const TensorInfo*> parts;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    if (!spec.inputs[i].present()) return Bad(spec, "input " + std::to_string(i) + " is absent");
    parts.push_back(&spec.inputs[i]);
  }
  if (!spec.attrs.Has("axis")) return Bad(spec, "attribute axis is required");
  const int32_t block = spec.outputs[0].channel_block;
  for (const TensorInfo* p : parts)
    if (p->channel_block != block) return NotSupported(spec, "all inputs need the output's layout");
  if (block == 0) return PlanBlocks(spec, spec.outputs[0], parts, spec.attrs.GetInt("axis", 0));
  const int64_t rank = static_cast<int64_t>(spec.outputs[0].dims.size());
  const int64_t axis = spec.attrs.GetInt("axis", 0);
  if (rank < 3 || (axis != 1 && axis != 1 - rank))
    return NotSupported(spec, "a Concat of channel-blocked or channels-last tensors must join the channels (axis 1)");
  for (const TensorInfo* p : parts) {
    if (p->dims.size() != static_cast<size_t>(rank) || (block > 0 && p->dims[1] % block != 0))
      return NotSupported(spec, "channel-blocked parts need channels divisible by " + std::to_string(block));
    for (int64_t d = 0; d < rank; ++d)
      if (d != 1 && p->dims[d] != spec.outputs[0].dims[d])
        return Bad(spec, "operand " + DimsStr(p->dims) + " does not match " + DimsStr(spec.outputs[0].dims) +
                             " outside axis 1");
  }
  // Channel-blocked parts ([N][C/b][H][W][b]) joined along C are, per image,
  // whole runs of blocks one after another: the same copies as plain.
  if (block > 0) return PlanBlocks(spec, spec.outputs[0], parts, 1);
  // Channels-last ([N][H][W][C]): per pixel, each part's C values in turn,
  // i.e. a plain concat of [N*H*W, C_i] matrices along axis 1.
  auto view = [](const TensorInfo& t) {
    return TensorInfo{t.dtype, {t.dims[0] * Product(t.dims, 2, t.dims.size()), t.dims[1]}};
  };
  std::vector<TensorInfo> views;
  for (const TensorInfo* p : parts) views.push_back(view(*p));
  std::vector<const TensorInfo*> view_parts;
  for (const TensorInfo& v : views) view_parts.push_back(&v);
  return PlanBlocks(spec, view(spec.outputs[0]), view_parts, 1);
}

Result<KernelPtr> CreateConcat(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(Blocks b, PlanConcat(spec));
  size_t row = 0;  // output bytes per outer step
  for (size_t n : b.bytes) row += n;
  // A channels-last Concat is one short copy per pixel and part (thousands
  // per image): large ones are split over the threads by pixel rows.
  constexpr size_t kParallelBytes = size_t{1} << 18;
  const bool parallel = b.outer > 1 && row * static_cast<size_t>(b.outer) >= kParallelBytes;
  return MakeKernel([b, row, parallel](const void* const* in, void* const* out) {
    char* y = static_cast<char*>(out[0]);
    const size_t parts = b.bytes.size();
    auto rows = [&](int64_t first, int64_t last) {
      for (int64_t o = first; o < last; ++o) {
        char* yo = y + static_cast<size_t>(o) * row;
        for (size_t i = 0; i < parts; ++i) {
          const size_t n = b.bytes[i];
          if (n == 0) continue;
          std::memcpy(yo, static_cast<const char*>(in[i]) + o * n, n);
          yo += n;
        }
      }
    };
    if (!parallel) {
      rows(0, b.outer);
      return Status::Ok();
    }
#pragma omp parallel
    {
      const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
      rows(b.outer * t / nt, b.outer * (t + 1) / nt);
    }
    return Status::Ok();
  });
}

// Output dims decide the split; Create checks them against input 1 or attr
// "split" where given, else against an equal split (the last part smaller
// when it does not divide, as opset 18's num_outputs has it).
Result<Blocks> PlanSplit(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 2, 1, SIZE_MAX));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckElementSize(spec, x.dtype));
  std::vector<const TensorInfo*> parts;
  for (const auto& o : spec.outputs) parts.push_back(&o);
  const int64_t given_axis = spec.attrs.GetInt("axis", 0);
  GE_ASSIGN_OR_RETURN(Blocks b, PlanBlocks(spec, x, parts, given_axis));
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, given_axis, static_cast<int64_t>(x.dims.size())));
  Dims got;
  for (const auto& o : spec.outputs) got.push_back(o.dims[axis]);
  Dims want;
  if (HasInput(spec, 1)) {
    if (spec.ConstInput(1)) {
      GE_ASSIGN_OR_RETURN(want, ConstInts(spec, 1, "split"));
    } else {
      want = got;  // sizes known only at run time: the output dims are the truth
    }
  } else if (spec.attrs.Has("split")) {
    want = spec.attrs.GetInts("split");
  } else {
    const int64_t k = static_cast<int64_t>(spec.outputs.size()), n = x.dims[axis];
    const int64_t chunk = (n + k - 1) / k;
    for (int64_t i = 0; i < k; ++i) want.push_back(std::max<int64_t>(0, std::min(chunk, n - i * chunk)));
  }
  if (got != want)
    return Bad(spec, "output sizes " + DimsStr(got) + " along axis differ from the split " + DimsStr(want));
  return b;
}

Result<KernelPtr> CreateSplit(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(Blocks b, PlanSplit(spec));
  return MakeKernel([b](const void* const* in, void* const* out) {
    const char* x = static_cast<const char*>(in[0]);
    const size_t parts = b.bytes.size();
    for (int64_t o = 0; o < b.outer; ++o)
      for (size_t i = 0; i < parts; ++i) {
        const size_t n = b.bytes[i];
        if (n == 0) continue;
        std::memcpy(static_cast<char*>(out[i]) + o * n, x, n);
        x += n;
      }
    return Status::Ok();
  });
}

// ---- Slice

// What Slice needs of its operands, in fixed arrays so that a per-run plan
// (non-constant operands) does not allocate.
struct SliceArgs {
  int n = 0;  // number of entries in starts/ends (and axes/steps)
  std::array<int64_t, kMaxRank> starts{}, ends{}, axes{}, steps{};
};

struct SliceGeometry {
  RowPlan<1> rows;
  int64_t base = 0;  // element offset of the first element read
};

// ONNX Slice semantics: negative starts/ends count from the end, then clamp
// to [0, dim] (positive step) or [-1, dim-1] (negative step). Returns the
// message of what is wrong, empty when fine. Does not allocate when fine.
std::string ComputeSlice(const Dims& in, const Dims& out, const SliceArgs& a, SliceGeometry& g) {
  const int r = static_cast<int>(in.size());
  std::array<int64_t, kMaxRank> start{}, step{}, count{};
  for (int d = 0; d < r; ++d) {
    step[d] = 1;
    count[d] = in[d];
  }
  std::array<bool, kMaxRank> seen{};
  for (int i = 0; i < a.n; ++i) {
    int64_t ax = a.axes[i];
    if (ax < -r || ax >= r) return "axis " + std::to_string(ax) + " is out of range for rank " + std::to_string(r);
    if (ax < 0) ax += r;
    if (seen[ax]) return "axis " + std::to_string(a.axes[i]) + " is repeated";
    seen[ax] = true;
    // INT64_MIN as a step would overflow when negated; it takes one element
    // either way.
    const int64_t dim = in[ax], s = std::max(a.steps[i], -std::numeric_limits<int64_t>::max());
    if (s == 0) return "step is 0";
    int64_t b = a.starts[i], e = a.ends[i];
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    int64_t c;
    if (dim == 0) {
      b = 0;
      c = 0;
    } else if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      c = e > b ? (e - b - 1) / s + 1 : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      c = b > e ? (b - e - 1) / -s + 1 : 0;
    }
    start[ax] = c > 0 ? b : 0;
    step[ax] = s;
    count[ax] = c;
  }
  for (int d = 0; d < r; ++d)
    if (count[d] != out[d])
      return "the slice has " + std::to_string(count[d]) + " elements along axis " + std::to_string(d) +
             ", the output " + std::to_string(out[d]);
  std::array<int64_t, kMaxRank> in_stride{}, stride{};
  int64_t s = 1;
  for (int d = r; d-- > 0;) {
    in_stride[d] = s;
    s *= in[d];
  }
  g.base = 0;
  for (int d = 0; d < r; ++d) {
    stride[d] = in_stride[d] * step[d];
    g.base += start[d] * in_stride[d];
  }
  if (!PlanStrided(out.data(), stride.data(), r, g.rows)) return "rank too large";
  return {};
}

// Operands of Slice: attrs (opset < 10) or inputs 1..4, each constant (read
// here) or not (then read per run).
struct SliceSource {
  SliceArgs args;                // constant parts filled in
  std::array<bool, 5> at_run{};  // inputs 1..4 to read per run
  std::array<DataType, 5> dtype{};
  bool any_at_run = false;
};

Result<SliceSource> PlanSliceSource(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 5, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckElementSize(spec, x.dtype));
  GE_RETURN_IF_ERROR(CheckSameDtype(spec, x, spec.outputs[0], "output"));
  if (spec.outputs[0].dims.size() != x.dims.size())
    return Bad(spec, "output rank " + std::to_string(spec.outputs[0].dims.size()) + " differs from input rank " +
                         std::to_string(x.dims.size()));
  SliceSource src;
  SliceArgs& a = src.args;
  const int r = static_cast<int>(x.dims.size());
  if (spec.inputs.size() == 1) {  // opset < 10
    const Dims starts = spec.attrs.GetInts("starts"), ends = spec.attrs.GetInts("ends");
    Dims axes = spec.attrs.GetInts("axes");
    if (starts.size() != ends.size()) return Bad(spec, "starts and ends differ in length");
    if (axes.empty())
      for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
    if (axes.size() != starts.size()) return Bad(spec, "axes and starts differ in length");
    if (starts.size() > static_cast<size_t>(r)) return Bad(spec, "more starts than axes");
    a.n = static_cast<int>(starts.size());
    for (int i = 0; i < a.n; ++i) {
      a.starts[i] = starts[i];
      a.ends[i] = ends[i];
      a.axes[i] = axes[i];
      a.steps[i] = 1;
    }
    return src;
  }
  if (!HasInput(spec, 1) || !HasInput(spec, 2)) return Bad(spec, "starts and ends are required");
  const int64_t n = spec.inputs[1].NumElements();
  if (n > r) return Bad(spec, "more starts than axes");
  a.n = static_cast<int>(n);
  const char* names[5] = {"", "starts", "ends", "axes", "steps"};
  for (size_t i = 1; i < 5; ++i) {
    if (!HasInput(spec, i)) {
      for (int j = 0; j < a.n; ++j) {
        if (i == 3) a.axes[j] = j;
        if (i == 4) a.steps[j] = 1;
      }
      continue;
    }
    const TensorInfo& t = spec.inputs[i];
    if (!IsIndexType(t.dtype))
      return NotSupported(spec, std::string(names[i]) + " must be i64 or i32, got " + DataTypeName(t.dtype));
    if (t.dims.size() != 1 || t.dims[0] != n)
      return Bad(spec, std::string(names[i]) + " must be 1-D of the length of starts");
    src.dtype[i] = t.dtype;
    int64_t* dst = i == 1 ? a.starts.data() : i == 2 ? a.ends.data() : i == 3 ? a.axes.data() : a.steps.data();
    if (const void* p = spec.ConstInput(i)) {
      ReadInts(p, t.dtype, n, dst);
    } else {
      src.at_run[i] = true;
      src.any_at_run = true;
    }
  }
  return src;
}

Status CheckSlice(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(SliceSource src, PlanSliceSource(spec));
  if (src.any_at_run) return Status::Ok();
  SliceGeometry g;
  const std::string err = ComputeSlice(spec.inputs[0].dims, spec.outputs[0].dims, src.args, g);
  return err.empty() ? Status::Ok() : Bad(spec, err);
}

template <typename U>
class SliceKernel final : public Kernel {
 public:
  SliceKernel(const KernelSpec& spec, const SliceSource& src, const SliceGeometry& g)
      : in_(spec.inputs[0].dims), out_(spec.outputs[0].dims), src_(src), g_(g), where_(Where(spec)) {}

  Status Run(const void* const* in, void* const* out) override {
    if (src_.any_at_run) {
      SliceArgs& a = src_.args;
      int64_t* dst[5] = {nullptr, a.starts.data(), a.ends.data(), a.axes.data(), a.steps.data()};
      for (size_t i = 1; i < 5; ++i)
        if (src_.at_run[i]) ReadInts(in[i], src_.dtype[i], a.n, dst[i]);
      const std::string err = ComputeSlice(in_, out_, a, g_);
      if (!err.empty()) return InvalidArgument(where_ + ": " + err);
    }
    StridedCopy(g_.rows, static_cast<const U*>(in[0]) + g_.base, static_cast<U*>(out[0]));
    return Status::Ok();
  }

 private:
  Dims in_, out_;
  SliceSource src_;
  SliceGeometry g_;
  std::string where_;
};

Result<KernelPtr> CreateSlice(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(SliceSource src, PlanSliceSource(spec));
  SliceGeometry g;
  if (!src.any_at_run) {
    const std::string err = ComputeSlice(spec.inputs[0].dims, spec.outputs[0].dims, src.args, g);
    if (!err.empty()) return Bad(spec, err);
  }
  return BySize(spec.inputs[0].dtype,
                [&]<typename U>() -> Result<KernelPtr> { return KernelPtr(new SliceKernel<U>(spec, src, g)); });
}

// ---- Gather

struct GatherPlan {
  int64_t outer = 1, n = 0, k = 0, inner = 1;  // data [outer, n, inner], indices k
  std::vector<int64_t> const_indices;          // normalised, when constant
};

Result<GatherPlan> PlanGather(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo &x = spec.inputs[0], &idx = spec.inputs[1];
  GE_RETURN_IF_ERROR(CheckElementSize(spec, x.dtype));
  GE_RETURN_IF_ERROR(CheckSameDtype(spec, x, spec.outputs[0], "output"));
  if (!IsIndexType(idx.dtype))
    return NotSupported(spec, std::string("indices dtype ") + DataTypeName(idx.dtype) + " is not supported (i64, i32)");
  const int64_t r = static_cast<int64_t>(x.dims.size());
  if (r == 0) return Bad(spec, "data must have rank >= 1");
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, spec.attrs.GetInt("axis", 0), r));
  Dims out(x.dims.begin(), x.dims.begin() + axis);
  out.insert(out.end(), idx.dims.begin(), idx.dims.end());
  out.insert(out.end(), x.dims.begin() + axis + 1, x.dims.end());
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, out));
  GatherPlan g;
  g.outer = Product(x.dims, 0, axis);
  g.n = x.dims[axis];
  g.inner = Product(x.dims, axis + 1, x.dims.size());
  g.k = idx.NumElements();
  if (const void* p = spec.ConstInput(1)) {
    g.const_indices = ReadInts(p, idx.dtype, g.k);
    for (int64_t& v : g.const_indices) {
      if (v < -g.n || v >= g.n)
        return Bad(spec, "index " + std::to_string(v) + " is out of range for axis size " + std::to_string(g.n));
      if (v < 0) v += g.n;
    }
  }
  return g;
}

template <typename U, typename I>
class GatherKernel final : public Kernel {
 public:
  GatherKernel(GatherPlan g, std::string where) : g_(std::move(g)), where_(std::move(where)) {}

  Status Run(const void* const* in, void* const* out) override {
    const U* x = static_cast<const U*>(in[0]);
    U* y = static_cast<U*>(out[0]);
    const int64_t* fixed = g_.const_indices.empty() ? nullptr : g_.const_indices.data();
    const I* idx = static_cast<const I*>(in[1]);
    const int64_t n = g_.n, k = g_.k, inner = g_.inner;
    if (!fixed) {  // validate once, not per outer step
      for (int64_t j = 0; j < k; ++j)
        if (idx[j] < -n || idx[j] >= n)
          return InvalidArgument(where_ + ": index " + std::to_string(idx[j]) + " is out of range for axis size " +
                                 std::to_string(n));
    }
    for (int64_t o = 0; o < g_.outer; ++o) {
      const U* src = x + o * n * inner;
      for (int64_t j = 0; j < k; ++j) {
        int64_t i = fixed ? fixed[j] : static_cast<int64_t>(idx[j]);
        if (i < 0) i += n;
        if (inner == 1) {
          *y++ = src[i];
        } else {
          std::memcpy(y, src + i * inner, static_cast<size_t>(inner) * sizeof(U));
          y += inner;
        }
      }
    }
    return Status::Ok();
  }

 private:
  GatherPlan g_;
  std::string where_;
};

Result<KernelPtr> CreateGather(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(GatherPlan g, PlanGather(spec));
  const bool i64 = spec.inputs[1].dtype == D::kInt64;
  return BySize(spec.inputs[0].dtype, [&]<typename U>() -> Result<KernelPtr> {
    if (i64) return KernelPtr(new GatherKernel<U, int64_t>(g, Where(spec)));
    return KernelPtr(new GatherKernel<U, int32_t>(g, Where(spec)));
  });
}

// ---- Pad

enum class PadMode { kConstant, kReflect, kEdge, kWrap };

// Per-axis tables: output index -> input index, -1 for the constant.
// Stored flat (offsets per axis) and sized at Create so that a per-run
// rebuild (non-constant pads) does not allocate.
struct PadTables {
  int rank = 0;
  std::array<int64_t, kMaxRank> in{}, out{}, offset{};
  std::vector<int64_t> map;
};

// Fills the tables from pads [b0, b1, ..., e0, e1, ...] (already expanded to
// every axis); the message of what is wrong, empty when fine.
std::string BuildPadTables(PadMode mode, const int64_t* pads, PadTables& t) {
  const int r = t.rank;
  for (int d = 0; d < r; ++d) {
    const int64_t dim = t.in[d], begin = pads[d], end = pads[r + d];
    if (dim + begin + end != t.out[d])
      return "input dim " + std::to_string(dim) + " padded by " + std::to_string(begin) + " and " +
             std::to_string(end) + " is not the output dim " + std::to_string(t.out[d]);
    if (mode != PadMode::kConstant && dim == 0 && t.out[d] > 0) return "cannot pad an empty axis in this mode";
    int64_t* m = t.map.data() + t.offset[d];
    for (int64_t j = 0; j < t.out[d]; ++j) {
      int64_t i = j - begin;
      if (i < 0 || i >= dim) {
        switch (mode) {
          case PadMode::kConstant:
            i = -1;
            break;
          case PadMode::kEdge:
            i = std::clamp<int64_t>(i, 0, dim - 1);
            break;
          case PadMode::kWrap:
            i = ((i % dim) + dim) % dim;
            break;
          case PadMode::kReflect: {
            if (dim == 1) {
              i = 0;
              break;
            }
            const int64_t period = 2 * (dim - 1);
            i = ((i % period) + period) % period;
            if (i >= dim) i = period - i;
            break;
          }
        }
      }
      m[j] = i;
    }
  }
  return {};
}

struct PadSource {
  PadMode mode = PadMode::kConstant;
  std::vector<int64_t> pads;  // expanded to [b0..b(r-1), e0..e(r-1)] when known
  bool pads_at_run = false;
  DataType pads_dtype = D::kInt64;
  std::vector<int64_t> axes;       // input 3 (constant) or all axes
  std::array<uint8_t, 8> value{};  // constant, as the element's bytes
  bool value_at_run = false;
};

// Expands pads given for `axes` to every axis.
std::vector<int64_t> ExpandPads(const int64_t* given, const std::vector<int64_t>& axes, int r) {
  std::vector<int64_t> full(2 * r, 0);
  const size_t k = axes.size();
  for (size_t i = 0; i < k; ++i) {
    full[axes[i]] = given[i];
    full[r + axes[i]] = given[k + i];
  }
  return full;
}

Result<PadSource> PlanPadSource(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 4, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckSameDtype(spec, x, spec.outputs[0], "output"));
  const bool numeric = DispatchNumeric(x.dtype, []<typename T>() {});
  if (!numeric) return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported");
  const int r = static_cast<int>(x.dims.size());
  if (spec.outputs[0].dims.size() != x.dims.size()) return Bad(spec, "output rank differs from input rank");
  PadSource src;
  const std::string mode = spec.attrs.GetString("mode", "constant");
  if (mode == "constant")
    src.mode = PadMode::kConstant;
  else if (mode == "reflect")
    src.mode = PadMode::kReflect;
  else if (mode == "edge")
    src.mode = PadMode::kEdge;
  else if (mode == "wrap")
    src.mode = PadMode::kWrap;
  else
    return NotSupported(spec, "attribute mode=\"" + mode + "\" (constant, reflect, edge, wrap)");
  // Axes (opset 18): constant input 3, else all.
  if (HasInput(spec, 3)) {
    GE_ASSIGN_OR_RETURN(Dims axes, ConstInts(spec, 3, "axes"));
    for (int64_t a : axes) {
      GE_ASSIGN_OR_RETURN(int64_t ax, NormalizeAxis(spec, a, r));
      src.axes.push_back(ax);
    }
  } else {
    for (int d = 0; d < r; ++d) src.axes.push_back(d);
  }
  const size_t want = 2 * src.axes.size();
  double value = spec.attrs.GetFloat("value", 0.0f);
  if (spec.inputs.size() == 1) {  // opset < 11: attributes
    const Dims pads = spec.attrs.GetInts("pads");
    if (pads.size() != want)
      return Bad(spec, "pads has " + std::to_string(pads.size()) + " entries, expected " + std::to_string(want));
    src.pads = ExpandPads(pads.data(), src.axes, r);
  } else {
    const TensorInfo& p = spec.inputs[1];
    if (!p.present()) return Bad(spec, "pads is required");
    if (!IsIndexType(p.dtype))
      return NotSupported(spec, std::string("pads must be i64 or i32, got ") + DataTypeName(p.dtype));
    if (p.NumElements() != static_cast<int64_t>(want))
      return Bad(spec, "pads has " + std::to_string(p.NumElements()) + " entries, expected " + std::to_string(want));
    src.pads_dtype = p.dtype;
    if (const void* c = spec.ConstInput(1)) {
      const Dims pads = ReadInts(c, p.dtype, p.NumElements());
      src.pads = ExpandPads(pads.data(), src.axes, r);
    } else {
      src.pads_at_run = true;
    }
  }
  if (HasInput(spec, 2)) {
    const TensorInfo& v = spec.inputs[2];
    GE_RETURN_IF_ERROR(CheckSameDtype(spec, x, v, "constant_value"));
    if (v.NumElements() != 1) return Bad(spec, "constant_value must be a scalar");
    if (const void* c = spec.ConstInput(2))
      std::memcpy(src.value.data(), c, DataTypeSize(x.dtype));
    else
      src.value_at_run = true;
  } else {
    DispatchNumeric(x.dtype, [&]<typename T>() {
      const T v = Convert<T>(value);
      std::memcpy(src.value.data(), &v, sizeof v);
    });
  }
  return src;
}

PadTables SizeTables(const KernelSpec& spec) {
  PadTables t;
  t.rank = static_cast<int>(spec.inputs[0].dims.size());
  int64_t total = 0;
  for (int d = 0; d < t.rank; ++d) {
    t.in[d] = spec.inputs[0].dims[d];
    t.out[d] = spec.outputs[0].dims[d];
    t.offset[d] = total;
    total += t.out[d];
  }
  t.map.assign(static_cast<size_t>(total), 0);
  return t;
}

Status CheckPad(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(PadSource src, PlanPadSource(spec));
  if (src.pads_at_run) return Status::Ok();
  PadTables t = SizeTables(spec);
  const std::string err = BuildPadTables(src.mode, src.pads.data(), t);
  return err.empty() ? Status::Ok() : Bad(spec, err);
}

template <typename U>
class PadKernel final : public Kernel {
 public:
  PadKernel(const KernelSpec& spec, PadSource src, PadTables t)
      : src_(std::move(src)), t_(std::move(t)), where_(Where(spec)) {
    int64_t s = 1;
    for (int d = t_.rank; d-- > 0;) {
      in_stride_[d] = s;
      s *= t_.in[d];
    }
    total_ = spec.outputs[0].NumElements();
    run_pads_.resize(2 * t_.rank);
    given_pads_.resize(2 * src_.axes.size());
  }

  Status Run(const void* const* in, void* const* out) override {
    if (src_.pads_at_run) {
      ReadInts(in[1], src_.pads_dtype, static_cast<int64_t>(given_pads_.size()), given_pads_.data());
      std::fill(run_pads_.begin(), run_pads_.end(), 0);
      const size_t k = src_.axes.size();
      for (size_t i = 0; i < k; ++i) {
        run_pads_[src_.axes[i]] = given_pads_[i];
        run_pads_[t_.rank + src_.axes[i]] = given_pads_[k + i];
      }
      const std::string err = BuildPadTables(src_.mode, run_pads_.data(), t_);
      if (!err.empty()) return InvalidArgument(where_ + ": " + err);
    }
    U c;
    std::memcpy(&c, src_.value_at_run ? in[2] : src_.value.data(), sizeof c);
    const U* x = static_cast<const U*>(in[0]);
    U* y = static_cast<U*>(out[0]);
    if (total_ == 0) return Status::Ok();
    const int r = t_.rank;
    if (r == 0) {
      *y = *x;
      return Status::Ok();
    }
    // Odometer over the output rows; a row whose outer index lands in the
    // constant padding is all constant.
    const int64_t row = t_.out[r - 1];
    const int64_t* last = t_.map.data() + t_.offset[r - 1];
    std::array<int64_t, kMaxRank> idx{};
    for (int64_t o = 0; o < total_; o += row) {
      int64_t base = 0;
      bool constant = false;
      for (int d = 0; d < r - 1; ++d) {
        const int64_t i = t_.map[t_.offset[d] + idx[d]];
        if (i < 0) constant = true;
        base += i * in_stride_[d];
      }
      U* dst = y + o;
      if (constant) {
        std::fill(dst, dst + row, c);
      } else {
        const U* src = x + base;
        for (int64_t j = 0; j < row; ++j) dst[j] = last[j] < 0 ? c : src[last[j]];
      }
      for (int d = r - 1; d-- > 0;) {
        if (++idx[d] < t_.out[d]) break;
        idx[d] = 0;
      }
    }
    return Status::Ok();
  }

 private:
  PadSource src_;
  PadTables t_;
  std::array<int64_t, kMaxRank> in_stride_{};
  int64_t total_ = 0;
  std::vector<int64_t> run_pads_, given_pads_;
  std::string where_;
};

Result<KernelPtr> CreatePad(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(PadSource src, PlanPadSource(spec));
  PadTables t = SizeTables(spec);
  if (!src.pads_at_run) {
    const std::string err = BuildPadTables(src.mode, src.pads.data(), t);
    if (!err.empty()) return Bad(spec, err);
  }
  return BySize(spec.inputs[0].dtype,
                [&]<typename U>() -> Result<KernelPtr> { return KernelPtr(new PadKernel<U>(spec, src, t)); });
}

// ---- Tile: out viewed as [r0, d0, r1, d1, ...] reading in with strides
// [0, s0, 0, s1, ...]; the repeats follow from the output dims.

Result<RowPlan<1>> PlanTile(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  GE_RETURN_IF_ERROR(CheckElementSize(spec, x.dtype));
  GE_RETURN_IF_ERROR(CheckSameDtype(spec, x, y, "output"));
  const size_t r = x.dims.size();
  if (!IsIndexType(spec.inputs[1].dtype)) return NotSupported(spec, "repeats must be i64 or i32");
  if (spec.inputs[1].NumElements() != static_cast<int64_t>(r))
    return Bad(
        spec, "repeats has " + std::to_string(spec.inputs[1].NumElements()) + " entries for rank " + std::to_string(r));
  if (y.dims.size() != r) return Bad(spec, "output rank differs from input rank");
  Dims reps(r);
  for (size_t d = 0; d < r; ++d) {
    if (x.dims[d] == 0) {
      reps[d] = 0;
    } else if (y.dims[d] % x.dims[d] != 0) {
      return Bad(spec, "output " + DimsStr(y.dims) + " is not a tiling of input " + DimsStr(x.dims));
    } else {
      reps[d] = y.dims[d] / x.dims[d];
    }
  }
  if (spec.ConstInput(1)) {
    GE_ASSIGN_OR_RETURN(Dims given, ConstInts(spec, 1, "repeats"));
    Dims want(r);
    for (size_t d = 0; d < r; ++d) {
      if (given[d] < 0) return Bad(spec, "repeats " + DimsStr(given) + " has a negative entry");
      want[d] = x.dims[d] * given[d];
    }
    GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  }
  const Dims s = Strides(x.dims);
  Dims dims, strides;
  for (size_t d = 0; d < r; ++d) {
    dims.push_back(reps[d]);
    strides.push_back(0);
    dims.push_back(x.dims[d]);
    strides.push_back(s[d]);
  }
  if (x.dims.empty()) {
    dims.push_back(1);
    strides.push_back(0);
  }
  RowPlan<1> plan;
  if (!PlanStrided(dims.data(), strides.data(), static_cast<int>(dims.size()), plan))
    return NotSupported(spec, "too many axes after collapsing");
  return plan;
}

Result<KernelPtr> CreateTile(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(RowPlan<1> plan, PlanTile(spec));
  return BySize(spec.inputs[0].dtype, [&]<typename U>() {
    return MakeKernel([plan](const void* const* in, void* const* out) {
      StridedCopy(plan, static_cast<const U*>(in[0]), static_cast<U*>(out[0]));
      return Status::Ok();
    });
  });
}

template <typename T>
Status StatusOf(const Result<T>& r) {
  return r.status();
}

}  // namespace

void RegisterDataMovementKernels(KernelRegistry& r) {
  r.Register(
      "Transpose", [](const KernelSpec& s) { return StatusOf(PlanTranspose(s)); }, CreateTranspose);
  r.Register(
      "Concat", [](const KernelSpec& s) { return StatusOf(PlanConcat(s)); }, CreateConcat, LayoutSupport::kOwn);
  r.Register(
      "Split", [](const KernelSpec& s) { return StatusOf(PlanSplit(s)); }, CreateSplit);
  r.Register("Slice", CheckSlice, CreateSlice);
  r.Register(
      "Gather", [](const KernelSpec& s) { return StatusOf(PlanGather(s)); }, CreateGather);
  r.Register("Pad", CheckPad, CreatePad);
  r.Register(
      "Tile", [](const KernelSpec& s) { return StatusOf(PlanTile(s)); }, CreateTile);
}

}  // namespace ge::hal
