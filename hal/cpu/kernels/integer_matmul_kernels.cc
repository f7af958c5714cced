// MatMulInteger (i32 = (A - a_zp) x (B - b_zp)) and QLinearMatMul (the same
// product requantized: round(acc * a_scale * b_scale / y_scale) + y_zp,
// saturated), numpy matmul shapes with broadcast batch dims. Zero points
// and scales are one value, or one per row of A / per column of B.
//
// Exact in i32 either way. With B 2-D and one zero point per operand (the
// common case: activations times a weight matrix) the product is oneDNN's
// int8 matmul (int8_gemm.h) over A's rows, batch dims folded in; otherwise a
// plain loop widens A and B, zero points subtracted, into buffers sized at
// creation, then multiplies. Requantization is ours in both: onnxruntime's
// order (round, then add the zero point), which oneDNN's output scales do
// not follow on ties.
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/int8_gemm.h"
#include "kernels/loop_common.h"
#include "kernels/quant_util.h"

namespace ge::hal {
namespace {

using namespace loop;
using D = DataType;
using Dims = std::vector<int64_t>;

struct IntMatMulPlan {
  int64_t m = 0, k = 0, n = 0;
  std::vector<std::pair<int64_t, int64_t>> batches;  // (A, B) matrix index per output matrix
  int64_t a_mats = 1, b_mats = 1;
  D a_type = D::kUInt8, b_type = D::kUInt8;
  size_t a = 0, a_zp = 0, b = 0, b_zp = 0;  // input positions (zp 0: none)
  bool requantize = false;                  // QLinearMatMul
  bool gemm = false;                        // oneDNN's int8 matmul (int8_gemm.h) computes the product
};

// A's and B's matrix index for every output batch position (numpy broadcast).
Result<std::vector<std::pair<int64_t, int64_t>>> BatchPairs(const KernelSpec& spec, Dims ab, Dims bb, Dims& out) {
  const size_t r = std::max(ab.size(), bb.size());
  ab.insert(ab.begin(), r - ab.size(), 1);
  bb.insert(bb.begin(), r - bb.size(), 1);
  out.assign(r, 1);
  for (size_t i = 0; i < r; ++i) {
    if (ab[i] != bb[i] && ab[i] != 1 && bb[i] != 1)
      return Bad(spec, "batch dims " + DimsStr(ab) + " and " + DimsStr(bb) + " do not broadcast");
    out[i] = std::max(ab[i], bb[i]);
  }
  const Dims as = Strides(ab), bs = Strides(bb);
  std::vector<std::pair<int64_t, int64_t>> pairs;
  const int64_t count = Product(out, 0, r);
  for (int64_t t = 0; t < count; ++t) {
    int64_t rest = t, ai = 0, bi = 0;
    for (size_t i = r; i-- > 0;) {
      const int64_t p = rest % out[i];
      rest /= out[i];
      if (ab[i] != 1) ai += p * as[i];
      if (bb[i] != 1) bi += p * bs[i];
    }
    pairs.emplace_back(ai, bi);
  }
  return pairs;
}

Result<IntMatMulPlan> PlanIntMatMul(const KernelSpec& spec) {
  IntMatMulPlan p;
  p.requantize = spec.op == "QLinearMatMul";
  if (p.requantize) {
    GE_RETURN_IF_ERROR(CheckArity(spec, 8, 8, 1, 1));
    p.a = 0, p.a_zp = 2, p.b = 3, p.b_zp = 5;
  } else {
    GE_RETURN_IF_ERROR(CheckArity(spec, 2, 4, 1, 1));
    p.a = 0, p.b = 1, p.a_zp = HasInput(spec, 2) ? 2 : 0, p.b_zp = HasInput(spec, 3) ? 3 : 0;
  }
  const TensorInfo &a = spec.inputs[p.a], &b = spec.inputs[p.b];
  GE_RETURN_IF_ERROR(CheckDtype(spec, a, "A", {D::kUInt8, D::kInt8}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, b, "B", {D::kUInt8, D::kInt8}));
  p.a_type = a.dtype;
  p.b_type = b.dtype;
  if ((p.a_zp && spec.inputs[p.a_zp].dtype != a.dtype) || (p.b_zp && spec.inputs[p.b_zp].dtype != b.dtype))
    return Bad(spec, "zero points must have their operand's dtype");
  if (a.dims.size() < 2 || b.dims.size() < 2)
    return NotSupported(spec, "1-D operands are not supported (A " + DimsStr(a.dims) + ", B " + DimsStr(b.dims) + ")");
  p.m = a.dims[a.dims.size() - 2];
  p.k = a.dims.back();
  p.n = b.dims.back();
  if (b.dims[b.dims.size() - 2] != p.k)
    return Bad(spec, "inner dims differ: A " + DimsStr(a.dims) + ", B " + DimsStr(b.dims));
  Dims out;
  GE_ASSIGN_OR_RETURN(
      p.batches, BatchPairs(spec, Dims(a.dims.begin(), a.dims.end() - 2), Dims(b.dims.begin(), b.dims.end() - 2), out));
  out.push_back(p.m);
  out.push_back(p.n);
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, out));
  p.a_mats = Product(a.dims, 0, a.dims.size() - 2);
  p.b_mats = Product(b.dims, 0, b.dims.size() - 2);
  if (p.a_zp) GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, p.a_zp, p.m, "A's zero point"));
  if (p.b_zp) GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, p.b_zp, p.n, "B's zero point"));
  if (p.requantize) {
    for (size_t i : {1, 4, 6}) GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[i], "scale", {D::kFloat32}));
    GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 1, p.m, "a_scale"));
    GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 4, p.n, "b_scale"));
    GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 6, 1, "y_scale"));
    GE_RETURN_IF_ERROR(quant::CheckPerTensorOr(spec, 7, 1, "y_zero_point"));
    GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[7], "y_zero_point", {D::kUInt8, D::kInt8}));
    if (spec.outputs[0].dtype != spec.inputs[7].dtype) return Bad(spec, "output dtype must be y_zero_point's");
  } else if (spec.outputs[0].dtype != D::kInt32) {
    return Bad(spec, "output dtype must be int32");
  }
  auto one_value = [&](size_t i) { return i == 0 || spec.inputs[i].NumElements() == 1; };
  p.gemm = b.dims.size() == 2 && one_value(p.a_zp) && one_value(p.b_zp);
  return p;
}

class IntMatMulKernel final : public Kernel {
 public:
  IntMatMulKernel(IntMatMulPlan p, const KernelSpec& spec, std::unique_ptr<Int8Gemm> gemm)
      : p_(std::move(p)),
        gemm_(std::move(gemm)),
        a_(gemm_ ? 0 : static_cast<size_t>(p_.a_mats * p_.m * p_.k)),
        b_(gemm_ ? 0 : static_cast<size_t>(p_.b_mats * p_.k * p_.n)),
        acc_(static_cast<size_t>(gemm_ ? (p_.requantize ? p_.a_mats * p_.m * p_.n : 0) : p_.n)),
        a_zps_(p_.a_zp ? spec.inputs[p_.a_zp].NumElements() : 0),
        b_zps_(p_.b_zp ? spec.inputs[p_.b_zp].NumElements() : 0),
        a_scales_(p_.requantize ? spec.inputs[1].NumElements() : 0),
        b_scales_(p_.requantize ? spec.inputs[4].NumElements() : 0),
        out_type_(spec.outputs[0].dtype) {}

  Status Run(const void* const* in, void* const* out) override {
    if (gemm_) return RunGemm(in, out);
    // Widen, zero points subtracted: A's per row, B's per column.
    for (int64_t i = 0; i < static_cast<int64_t>(a_.size()); ++i) {
      const int64_t row = (i / p_.k) % p_.m;
      a_[i] = quant::QuantAt(in[p_.a], p_.a_type, i) -
              (a_zps_ ? quant::QuantAt(in[p_.a_zp], p_.a_type, quant::ParamAt(a_zps_, row)) : 0);
    }
    for (int64_t i = 0; i < static_cast<int64_t>(b_.size()); ++i) {
      const int64_t col = i % p_.n;
      b_[i] = quant::QuantAt(in[p_.b], p_.b_type, i) -
              (b_zps_ ? quant::QuantAt(in[p_.b_zp], p_.b_type, quant::ParamAt(b_zps_, col)) : 0);
    }
    int64_t o = 0;
    for (const auto& [ai, bi] : p_.batches) {
      const int32_t* am = a_.data() + ai * p_.m * p_.k;
      const int32_t* bm = b_.data() + bi * p_.k * p_.n;
      for (int64_t i = 0; i < p_.m; ++i, o += p_.n) {
        std::fill(acc_.begin(), acc_.end(), 0);
        for (int64_t kk = 0; kk < p_.k; ++kk) {
          const int32_t av = am[i * p_.k + kk];
          const int32_t* brow = bm + kk * p_.n;
          for (int64_t j = 0; j < p_.n; ++j) acc_[j] += av * brow[j];
        }
        Store(in, out[0], o, i, acc_.data());
      }
    }
    return Status::Ok();
  }

 private:
  // Every matrix of A at once (B is 2-D): the int32 product straight into
  // the output, or into acc_ and requantized row by row.
  Status RunGemm(const void* const* in, void* const* out) {
    const int32_t a_zp = p_.a_zp ? quant::QuantAt(in[p_.a_zp], p_.a_type, 0) : 0;
    const int32_t b_zp = p_.b_zp ? quant::QuantAt(in[p_.b_zp], p_.b_type, 0) : 0;
    int32_t* acc = p_.requantize ? acc_.data() : static_cast<int32_t*>(out[0]);
    GE_RETURN_IF_ERROR(gemm_->Run(in[p_.a], in[p_.b], a_zp, b_zp, acc));
    if (!p_.requantize) return Status::Ok();
    for (int64_t r = 0; r < p_.a_mats * p_.m; ++r) Store(in, out[0], r * p_.n, r % p_.m, acc + r * p_.n);
    return Status::Ok();
  }

  // Row i of the output at element o: i32 as is, or requantized.
  void Store(const void* const* in, void* y, int64_t o, int64_t i, const int32_t* acc) const {
    if (!p_.requantize) {
      std::copy(acc, acc + p_.n, static_cast<int32_t*>(y) + o);
      return;
    }
    const float* as = static_cast<const float*>(in[1]);
    const float* bs = static_cast<const float*>(in[4]);
    const float ys = *static_cast<const float*>(in[6]);
    const int32_t yz = quant::QuantAt(in[7], out_type_, 0);
    quant::DispatchQuant(out_type_, [&]<typename Q>() {
      Q* q = static_cast<Q*>(y) + o;
      // onnxruntime's order: one float multiplier a_scale * b_scale / y_scale.
      for (int64_t j = 0; j < p_.n; ++j)
        q[j] = quant::Saturate<Q>(
            static_cast<float>(acc[j]) * (as[quant::ParamAt(a_scales_, i)] * bs[quant::ParamAt(b_scales_, j)] / ys),
            yz);
    });
  }

  IntMatMulPlan p_;
  std::unique_ptr<Int8Gemm> gemm_;
  std::vector<int32_t> a_, b_, acc_;
  int64_t a_zps_, b_zps_, a_scales_, b_scales_;
  D out_type_;
};

Result<std::unique_ptr<Kernel>> CreateIntMatMul(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(IntMatMulPlan p, PlanIntMatMul(spec));
  std::unique_ptr<Int8Gemm> gemm;
  if (p.gemm) {
    auto made = dnnl_util::Guard(spec, [&] {
      return Int8Gemm::Create(p.a_mats * p.m, p.k, p.n, p.a_type, p.b_type, spec.ConstInput(p.b));
    });
    // oneDNN may lack an int8 matmul for this CPU or these sizes: the loop is exact too.
    if (made.ok()) gemm = std::move(*made);
  }
  return std::unique_ptr<Kernel>(new IntMatMulKernel(std::move(p), spec, std::move(gemm)));
}

}  // namespace

void RegisterIntegerMatMulKernels(KernelRegistry& r) {
  for (const char* op : {"MatMulInteger", "QLinearMatMul"})
    r.Register(
        op, [](const KernelSpec& s) { return PlanIntMatMul(s).status(); }, CreateIntMatMul);
}

}  // namespace ge::hal
