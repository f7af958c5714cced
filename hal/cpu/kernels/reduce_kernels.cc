// Reductions: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd,
// ReduceSumSquare, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp (f32,
// f64; the sums, products and extremes also i32, i64); ArgMax, ArgMin.
// ReduceMax and ReduceMin also take bool (TF's Any and All).
//
// The input shape is collapsed into alternating kept/reduced axes (size-1
// axes dropped, neighbours with the same role merged). Two forms cover the
// usual cases: [K, R] (the innermost axes reduced: LayerNorm's mean over the
// last axis) reduces contiguous rows with eight accumulators GCC
// vectorises, and [K1, R, K2] accumulates whole K2 rows. Anything else walks
// the input once, combining into the output through its strides.
#include <cmath>
#include <limits>

#include "cpu_kernels.h"
#include "kernels/loop_broadcast.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using Dims = std::vector<int64_t>;
using D = DataType;

// A reduction: init, map (applied to each input), combine, and finish
// (applied to each result, given the reduced element count).
template <typename T>
struct SumR {
  static T Init() { return T(0); }
  static T Map(T v) { return v; }
  static T Combine(T a, T b) { return a + b; }
  static T Finish(T a, int64_t) { return a; }
};
template <typename T>
struct MeanR : SumR<T> {
  static T Finish(T a, int64_t n) { return n == 0 ? a : static_cast<T>(a / static_cast<T>(n)); }
};
template <typename T>
struct ProdR {
  static T Init() { return T(1); }
  static T Map(T v) { return v; }
  static T Combine(T a, T b) { return a * b; }
  static T Finish(T a, int64_t) { return a; }
};
template <typename T>
struct MaxR {
  static T Init() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
  }
  static T Map(T v) { return v; }
  static T Combine(T a, T b) { return a < b ? b : a; }
  static T Finish(T a, int64_t) { return a; }
};
template <typename T>
struct MinR {
  static T Init() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  }
  static T Map(T v) { return v; }
  static T Combine(T a, T b) { return b < a ? b : a; }
  static T Finish(T a, int64_t) { return a; }
};
// Bool (stored as 0/1 bytes) Max and Min are TF's Any and All: the empty
// reduction is false for Any and true for All.
struct AnyR : MaxR<uint8_t> {
  static uint8_t Init() { return 0; }
};
struct AllR : MinR<uint8_t> {
  static uint8_t Init() { return 1; }
};
template <typename T>
struct SumSquareR : SumR<T> {
  static T Map(T v) { return v * v; }
};
template <typename T>
struct L1R : SumR<T> {
  static T Map(T v) { return v < 0 ? -v : v; }
};
template <typename T>
struct L2R : SumSquareR<T> {
  static T Finish(T a, int64_t) { return std::sqrt(a); }
};
template <typename T>
struct LogSumR : SumR<T> {
  static T Finish(T a, int64_t) { return std::log(a); }
};

// log(sum(exp(x))) accumulated as a running log-add-exp, so no exp()
// overflows however large x is (ReduceLogSumExp).
template <typename T>
struct LogSumExpR {
  static T Init() { return -std::numeric_limits<T>::infinity(); }
  static T Map(T v) { return v; }
  static T Combine(T a, T b) {
    if (a < b) std::swap(a, b);
    if (b == -std::numeric_limits<T>::infinity()) return a;
    if (a == b) return a + static_cast<T>(0.69314718055994530942);  // also +inf; log(2)
    return a + std::log1p(std::exp(b - a));                          // NaN propagates
  }
  static T Finish(T a, int64_t) { return a; }
};

// Eight independent accumulators: the float adds may then be vectorised
// without reassociating (which GCC does not do on its own).
template <typename R, typename T>
inline T ReduceRow(const T* x, int64_t n) {
  constexpr int kAcc = 8;
  T acc[kAcc];
  for (int j = 0; j < kAcc; ++j) acc[j] = R::Init();
  int64_t i = 0;
  for (; i + kAcc <= n; i += kAcc)
    for (int j = 0; j < kAcc; ++j) acc[j] = R::Combine(acc[j], R::Map(x[i + j]));
  T r = R::Init();
  for (int j = 0; j < kAcc; ++j) r = R::Combine(r, acc[j]);
  for (; i < n; ++i) r = R::Combine(r, R::Map(x[i]));
  return r;
}

struct ReducePlan {
  enum Form { kInner, kMiddle, kGeneral } form = kGeneral;
  int64_t k1 = 1, r = 1, k2 = 1;  // kInner: [k1, r]; kMiddle: [k1, r, k2]
  RowPlan<1> walk;                // kGeneral: over the input, "strides" into the output
  int64_t count = 1;              // reduced elements per output
  int64_t out_elems = 0;
};

// axes (normalised, unique) of dims -> plan; also the output dims.
ReducePlan PlanReduce(const Dims& in, const std::vector<bool>& reduced) {
  ReducePlan p;
  Dims dims;
  std::vector<bool> red;
  for (size_t i = 0; i < in.size(); ++i) {
    if (reduced[i]) p.count *= in[i];
    if (in[i] == 1) continue;
    if (!dims.empty() && red.back() == reduced[i]) {
      dims.back() *= in[i];
    } else {
      dims.push_back(in[i]);
      red.push_back(reduced[i]);
    }
  }
  p.out_elems = 1;
  for (size_t i = 0; i < in.size(); ++i)
    if (!reduced[i]) p.out_elems *= in[i];
  const size_t n = dims.size();
  if (n == 0) {  // a single element
    p.form = ReducePlan::kInner;
    return p;
  }
  if (red.back() && n <= 2) {  // [r] or [k1, r]
    p.form = ReducePlan::kInner;
    p.k1 = n == 2 ? dims[0] : 1;
    p.r = dims.back();
    return p;
  }
  if (!red.back() && (n == 1 || (n == 2 && red[0]) || (n == 3 && red[1]))) {  // [k], [r, k2], [k1, r, k2]
    p.form = ReducePlan::kMiddle;
    p.k2 = dims.back();
    if (n >= 2) p.r = dims[n - 2];
    if (n == 3) p.k1 = dims[0];
    return p;
  }
  // General: output strides along the collapsed input (0 on reduced axes).
  Dims strides(n, 0);
  int64_t s = 1;
  for (size_t i = n; i-- > 0;) {
    if (!red[i]) {
      strides[i] = s;
      s *= dims[i];
    }
  }
  p.form = ReducePlan::kGeneral;
  PlanStrided(dims.data(), strides.data(), static_cast<int>(n), p.walk);
  return p;
}

template <typename T, typename R>
Result<KernelPtr> ReduceKernel(const ReducePlan& p) {
  return MakeKernel([p](const void* const* in, void* const* out) {
    const T* x = static_cast<const T*>(in[0]);
    T* y = static_cast<T*>(out[0]);
    const int64_t count = p.count;
    switch (p.form) {
      case ReducePlan::kInner: {
        const int64_t r = p.r;
        auto rows = [&](int64_t b, int64_t e) {
          for (int64_t k = b; k < e; ++k) y[k] = R::Finish(ReduceRow<R>(x + k * r, r), count);
        };
        if (p.k1 * r >= kParallelMin && p.k1 > 1) {
#pragma omp parallel for schedule(static)
          for (int64_t k = 0; k < p.k1; ++k) rows(k, k + 1);
        } else {
          rows(0, p.k1);
        }
        break;
      }
      case ReducePlan::kMiddle: {
        const int64_t r = p.r, k2 = p.k2;
        for (int64_t k = 0; k < p.k1; ++k) {
          const T* src = x + k * r * k2;
          T* dst = y + k * k2;
          if (r == 0) {  // an empty reduced axis: the identity
            for (int64_t j = 0; j < k2; ++j) dst[j] = R::Finish(R::Init(), count);
            continue;
          }
          for (int64_t j = 0; j < k2; ++j) dst[j] = R::Combine(R::Init(), R::Map(src[j]));
          for (int64_t i = 1; i < r; ++i) {
            const T* row = src + i * k2;
            for (int64_t j = 0; j < k2; ++j) dst[j] = R::Combine(dst[j], R::Map(row[j]));
          }
          for (int64_t j = 0; j < k2; ++j) dst[j] = R::Finish(dst[j], count);
        }
        break;
      }
      case ReducePlan::kGeneral: {
        std::fill(y, y + p.out_elems, R::Init());
        // Rows of the input; off is the output offset of the row start.
        auto row = [&](const std::array<int64_t, 1>& off, int64_t o, int64_t n) {
          const T* src = x + o;
          T* dst = y + off[0];
          if (p.walk.contiguous[0]) {
            for (int64_t j = 0; j < n; ++j) dst[j] = R::Combine(dst[j], R::Map(src[j]));
          } else {
            dst[0] = R::Combine(dst[0], ReduceRow<R>(src, n));
          }
        };
        // Serial: several rows may combine into the same outputs.
        if (p.walk.total > 0) RowsOf(p.walk, 0, p.walk.total / p.walk.row, row);
        for (int64_t i = 0; i < p.out_elems; ++i) y[i] = R::Finish(y[i], count);
        break;
      }
    }
    return Status::Ok();
  });
}

struct ReduceSpec {
  std::vector<bool> reduced;  // per input axis
  Dims out;
};

// Axes from input 1 (ReduceSum opset 13, the rest opset 18; must be
// constant) or attr "axes"; keepdims, noop_with_empty_axes.
Result<ReduceSpec> PlanReduceSpec(const KernelSpec& spec, std::initializer_list<DataType> dtypes) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 2, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "input", dtypes));
  if (spec.outputs[0].dtype != x.dtype)
    return Bad(spec, std::string("output dtype ") + DataTypeName(spec.outputs[0].dtype) + " differs from input dtype " +
                         DataTypeName(x.dtype));
  Dims axes;
  if (HasInput(spec, 1)) {
    if (!ValuesKnown(spec)) return ReduceSpec{};
    GE_ASSIGN_OR_RETURN(axes, ConstInts(spec, 1, "axes"));
  } else {
    axes = spec.attrs.GetInts("axes");
  }
  const int64_t r = static_cast<int64_t>(x.dims.size());
  const bool keep = spec.attrs.GetInt("keepdims", 1) != 0;
  const bool noop = spec.attrs.GetInt("noop_with_empty_axes", 0) != 0;
  ReduceSpec rs;
  rs.reduced.assign(r, axes.empty() && !noop);
  for (int64_t a : axes) {
    GE_ASSIGN_OR_RETURN(int64_t ax, NormalizeAxis(spec, a, r));
    rs.reduced[ax] = true;
  }
  for (int64_t i = 0; i < r; ++i) {
    if (!rs.reduced[i])
      rs.out.push_back(x.dims[i]);
    else if (keep)
      rs.out.push_back(1);
  }
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, rs.out));
  return rs;
}

// ints: also i64 and i32; BoolR: the reduction of bool inputs (none if void).
template <template <typename> class R, typename BoolR = void>
void RegisterReduce(KernelRegistry& reg, const char* op, bool ints) {
  auto plan = [ints](const KernelSpec& spec) {
    if constexpr (!std::is_void_v<BoolR>)
      return PlanReduceSpec(spec, {D::kFloat32, D::kFloat64, D::kInt64, D::kInt32, D::kBool});
    return ints ? PlanReduceSpec(spec, {D::kFloat32, D::kFloat64, D::kInt64, D::kInt32})
                : PlanReduceSpec(spec, {D::kFloat32, D::kFloat64});
  };
  reg.Register(
      op, [plan](const KernelSpec& spec) { return plan(spec).status(); },
      [plan](const KernelSpec& spec) -> Result<KernelPtr> {
        GE_ASSIGN_OR_RETURN(ReduceSpec rs, plan(spec));
        const ReducePlan p = PlanReduce(spec.inputs[0].dims, rs.reduced);
        switch (spec.inputs[0].dtype) {
          case D::kInt64:
            return ReduceKernel<int64_t, R<int64_t>>(p);
          case D::kInt32:
            return ReduceKernel<int32_t, R<int32_t>>(p);
          case D::kFloat64:
            return ReduceKernel<double, R<double>>(p);
          case D::kBool:
            if constexpr (!std::is_void_v<BoolR>) return ReduceKernel<uint8_t, BoolR>(p);
            [[fallthrough]];
          default:
            return ReduceKernel<float, R<float>>(p);
        }
      });
}

// ---- ArgMax / ArgMin over one axis of [outer, n, inner], int64 out.

struct ArgPlan {
  int64_t outer = 1, n = 0, inner = 1;
};

Result<ArgPlan> PlanArg(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "input", {D::kFloat32, D::kInt64, D::kInt32}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.outputs[0], "output", {D::kInt64}));
  const int64_t r = static_cast<int64_t>(x.dims.size());
  if (r == 0) return Bad(spec, "input must have rank >= 1");
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, spec.attrs.GetInt("axis", 0), r));
  if (x.dims[axis] == 0) return Bad(spec, "cannot take the index of an empty axis");
  Dims out;
  const bool keep = spec.attrs.GetInt("keepdims", 1) != 0;
  for (int64_t i = 0; i < r; ++i) {
    if (i != axis)
      out.push_back(x.dims[i]);
    else if (keep)
      out.push_back(1);
  }
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, out));
  ArgPlan p;
  p.outer = Product(x.dims, 0, axis);
  p.n = x.dims[axis];
  p.inner = Product(x.dims, axis + 1, x.dims.size());
  return p;
}

// Better(a, b): a replaces the best b. Last selects the last of equal ones.
template <typename T, bool Max, bool Last>
inline bool Better(T a, T b) {
  if constexpr (Max)
    return Last ? a >= b : a > b;
  else
    return Last ? a <= b : a < b;
}

template <typename T, bool Max, bool Last>
class ArgKernel final : public Kernel {
 public:
  explicit ArgKernel(const ArgPlan& p) : p_(p), best_(static_cast<size_t>(p.inner)) {}

  Status Run(const void* const* in, void* const* out) override {
    const T* x = static_cast<const T*>(in[0]);
    int64_t* y = static_cast<int64_t*>(out[0]);
    const int64_t n = p_.n, inner = p_.inner;
    for (int64_t o = 0; o < p_.outer; ++o) {
      const T* src = x + o * n * inner;
      int64_t* dst = y + o * inner;
      if (inner == 1) {
        T best = src[0];
        int64_t at = 0;
        for (int64_t j = 1; j < n; ++j)
          if (Better<T, Max, Last>(src[j], best)) {
            best = src[j];
            at = j;
          }
        dst[0] = at;
        continue;
      }
      T* best = best_.data();
      for (int64_t k = 0; k < inner; ++k) {
        best[k] = src[k];
        dst[k] = 0;
      }
      for (int64_t j = 1; j < n; ++j) {
        const T* row = src + j * inner;
        for (int64_t k = 0; k < inner; ++k)
          if (Better<T, Max, Last>(row[k], best[k])) {
            best[k] = row[k];
            dst[k] = j;
          }
      }
    }
    return Status::Ok();
  }

 private:
  ArgPlan p_;
  std::vector<T> best_;  // scratch, one per inner position
};

template <bool Max>
void RegisterArg(KernelRegistry& reg, const char* op) {
  reg.Register(
      op, [](const KernelSpec& spec) { return PlanArg(spec).status(); },
      [](const KernelSpec& spec) -> Result<KernelPtr> {
        GE_ASSIGN_OR_RETURN(ArgPlan p, PlanArg(spec));
        const bool last = spec.attrs.GetInt("select_last_index", 0) != 0;
        auto make = [&]<typename T>() -> KernelPtr {
          if (last) return KernelPtr(new ArgKernel<T, Max, true>(p));
          return KernelPtr(new ArgKernel<T, Max, false>(p));
        };
        switch (spec.inputs[0].dtype) {
          case D::kInt64:
            return make.template operator()<int64_t>();
          case D::kInt32:
            return make.template operator()<int32_t>();
          default:
            return make.template operator()<float>();
        }
      });
}

}  // namespace

void RegisterReduceKernels(KernelRegistry& r) {
  RegisterReduce<SumR>(r, "ReduceSum", true);
  RegisterReduce<MeanR>(r, "ReduceMean", true);
  RegisterReduce<MaxR, AnyR>(r, "ReduceMax", true);
  RegisterReduce<MinR, AllR>(r, "ReduceMin", true);
  RegisterReduce<ProdR>(r, "ReduceProd", true);
  RegisterReduce<SumSquareR>(r, "ReduceSumSquare", true);
  RegisterReduce<L1R>(r, "ReduceL1", true);
  RegisterReduce<L2R>(r, "ReduceL2", false);
  RegisterReduce<LogSumR>(r, "ReduceLogSum", false);
  RegisterReduce<LogSumExpR>(r, "ReduceLogSumExp", false);
  RegisterArg<true>(r, "ArgMax");
  RegisterArg<false>(r, "ArgMin");
}

}  // namespace ge::hal
