// ONNX MatMul (N-D, numpy batch broadcasting, 1-D operands), Gemm and our
// FusedMatMul (MatMul + bias over the last axis, from matmul_add_to_gemm) on
// the oneDNN matmul primitive, with the optional fused "activation" (Relu,
// Clip, HardSwish and erf Gelu as oneDNN post-ops; Sigmoid and Swish on an
// f32 output by an own pass after it, activation_loop.h).
//
// Transposes are strided memory descriptors, not copies. When B has no batch
// (BERT's [1,128,256] x [256,256]) A's batch folds into M: one 2-D GEMM.
// Constant B is reordered once into the layout the primitive prefers.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"
#include "hal/memory.h"
#include "kernels/packed_weights.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using tag = dnnl::memory::format_tag;
using dims = std::vector<int64_t>;

// Whether the activation runs after the primitive, over its f32 output
// (RunsAfterPrimitive: Sigmoid and Swish).
bool ActAfter(const Activation& act, const dnnl::memory::desc& dst) {
  return dst.data_type() == dnnl::memory::data_type::f32 && RunsAfterPrimitive(act);
}

void AppendPostAct(dnnl::post_ops& ops, const Activation& act, const dnnl::memory::desc& dst) {
  if (!ActAfter(act, dst)) AppendActivation(ops, act);
}

// What the oneDNN matmul computes: dst = act(alpha * src x wei + beta * C).
struct MatMulPlan {
  dnnl::memory::desc src, wei, dst;  // user layouts (strided when transposed)
  float alpha = 1.0f, beta = 1.0f;
  bool has_c = false;
  dnnl::memory::desc c;  // plain, same rank as dst, broadcast dims are 1
  Activation act;  // erf Gelu too: the compiler folds it into matrix products only
};

int64_t Product(const dims& d, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end; ++i) p *= d[i];
  return p;
}

// Row-major [rows, cols] viewed through its transpose: dims {cols, rows}.
dnnl::memory::desc Transposed(int64_t rows, int64_t cols, dnnl::memory::data_type type) {
  return dnnl::memory::desc({cols, rows}, type, dnnl::memory::dims{1, cols});
}

// A bf16 A computes in bf16: B may be bf16 or f32 (converted when packed, or
// per run when it is not constant). An f32 A takes only an f32 B.
Status CheckTypes(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(RequireStaticFloat(spec));
  const DataType a = spec.inputs[0].dtype, b = spec.inputs[1].dtype;
  if (a == DataType::kFloat32 && b != DataType::kFloat32)
    return Unsupported(spec.op + ": B is " + DataTypeName(b) + " but A is f32");
  return Status::Ok();
}

// MatMul's (and FusedMatMul's, planned as one) and Gemm's attributes;
// broadcast is Gemm's before opset 7 (C broadcasts either way).
const KnownAttrs kMatMulKnownAttrs({}, /*with_activation=*/true);
const KnownAttrs kGemmKnownAttrs({"alpha", "beta", "broadcast", "transA", "transB"}, /*with_activation=*/true);

Result<MatMulPlan> PlanMatMul(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(kMatMulKnownAttrs.Check(spec));
  if (spec.inputs.size() != 2) return InvalidArgument("MatMul takes 2 inputs");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "MatMul has one output"));
  GE_RETURN_IF_ERROR(CheckTypes(spec));
  const dims& a = spec.inputs[0].dims;
  const dims& b = spec.inputs[1].dims;
  if (a.empty() || b.empty()) return InvalidArgument("MatMul operands must have rank >= 1");
  // ONNX/numpy: 1-D A is [1,K] and 1-D B is [K,1]; those dims are dropped after.
  const dims a2 = a.size() == 1 ? dims{1, a[0]} : a;
  const dims b2 = b.size() == 1 ? dims{b[0], 1} : b;
  const int64_t m = a2[a2.size() - 2], k = a2.back(), n = b2.back();
  if (b2[b2.size() - 2] != k)
    return InvalidArgument("MatMul: inner dims differ: " + DimsString(a) + " x " + DimsString(b));
  if (k == 0) return Unsupported("MatMul: empty inner dimension");
  const size_t batch_rank = std::max(a2.size(), b2.size()) - 2;
  dims ba(batch_rank - (a2.size() - 2), 1), bb(batch_rank - (b2.size() - 2), 1), bo(batch_rank);
  ba.insert(ba.end(), a2.begin(), a2.end() - 2);
  bb.insert(bb.end(), b2.begin(), b2.end() - 2);
  for (size_t i = 0; i < batch_rank; ++i) {
    if (ba[i] != bb[i] && ba[i] != 1 && bb[i] != 1)
      return InvalidArgument("MatMul: batch dims do not broadcast: " + DimsString(a) + " x " + DimsString(b));
    bo[i] = ba[i] == 1 ? bb[i] : ba[i];
  }
  dims y = bo;
  if (a.size() > 1) y.push_back(m);
  if (b.size() > 1) y.push_back(n);
  if (spec.outputs[0].dims != y)
    return InvalidArgument("MatMul: output " + DimsString(spec.outputs[0].dims) + " does not match the computed " +
                           DimsString(y));
  if (batch_rank + 2 > DNNL_MAX_NDIMS) return Unsupported("MatMul: rank above " + std::to_string(DNNL_MAX_NDIMS));

  MatMulPlan p;
  GE_ASSIGN_OR_RETURN(p.act, ParseActivation(spec.attrs, /*gelu_ok=*/true));
  const auto ta = ToDnnl(spec.inputs[0].dtype), tb = ToDnnl(spec.inputs[1].dtype), ty = ToDnnl(spec.outputs[0].dtype);
  if (Product(bb, 0, batch_rank) == 1) {
    // B is one matrix: fold A's batch into M (A and Y are contiguous row-major).
    const int64_t rows = Product(ba, 0, batch_rank) * m;
    p.src = PlainDesc({rows, k}, ta);
    p.wei = PlainDesc({k, n}, tb);
    p.dst = PlainDesc({rows, n}, ty);
    return p;
  }
  auto full = [&](const dims& batch, int64_t r, int64_t c, dnnl::memory::data_type t) {
    dims d = batch;
    d.push_back(r);
    d.push_back(c);
    return PlainDesc(d, t);
  };
  p.src = full(ba, m, k, ta);
  p.wei = full(bb, k, n, tb);
  p.dst = full(bo, m, n, ty);
  return p;
}

Result<MatMulPlan> PlanGemm(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(kGemmKnownAttrs.Check(spec));
  if (spec.inputs.size() < 2 || spec.inputs.size() > 3) return InvalidArgument("Gemm takes A, B and optional C");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "Gemm has one output"));
  GE_RETURN_IF_ERROR(CheckTypes(spec));
  const dims& a = spec.inputs[0].dims;
  const dims& b = spec.inputs[1].dims;
  if (a.size() != 2 || b.size() != 2)
    return InvalidArgument("Gemm: A " + DimsString(a) + " and B " + DimsString(b) + " must be 2-D");
  const bool ta = spec.attrs.GetInt("transA", 0) != 0, tb = spec.attrs.GetInt("transB", 0) != 0;
  const int64_t m = ta ? a[1] : a[0], k = ta ? a[0] : a[1];
  const int64_t kb = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
  if (k != kb) return InvalidArgument("Gemm: inner dims differ: " + DimsString(a) + " x " + DimsString(b));
  if (k == 0) return Unsupported("Gemm: empty inner dimension");
  if (spec.outputs[0].dims != dims{m, n})
    return InvalidArgument("Gemm: output " + DimsString(spec.outputs[0].dims) + " is not [" + std::to_string(m) + "," +
                           std::to_string(n) + "]");
  MatMulPlan p;
  GE_ASSIGN_OR_RETURN(p.act, ParseActivation(spec.attrs, /*gelu_ok=*/true));
  const auto type_a = ToDnnl(spec.inputs[0].dtype), type_b = ToDnnl(spec.inputs[1].dtype);
  p.src = ta ? Transposed(a[0], a[1], type_a) : PlainDesc(a, type_a);
  p.wei = tb ? Transposed(b[0], b[1], type_b) : PlainDesc(b, type_b);
  p.dst = PlainDesc({m, n}, ToDnnl(spec.outputs[0].dtype));
  p.alpha = spec.attrs.GetFloat("alpha", 1.0f);
  p.beta = spec.attrs.GetFloat("beta", 1.0f);
  p.has_c = spec.inputs.size() == 3 && spec.inputs[2].present() && p.beta != 0.0f;
  if (p.has_c) {
    // Unidirectional broadcast to [M,N]: right-aligned, each dim 1 or equal.
    const dims& c = spec.inputs[2].dims;
    if (c.size() > 2) return InvalidArgument("Gemm: C " + DimsString(c) + " has rank > 2");
    dims c2(2 - c.size(), 1);
    c2.insert(c2.end(), c.begin(), c.end());
    if ((c2[0] != 1 && c2[0] != m) || (c2[1] != 1 && c2[1] != n))
      return InvalidArgument("Gemm: C " + DimsString(c) + " does not broadcast to [" + std::to_string(m) + "," +
                             std::to_string(n) + "]");
    p.c = PlainDesc(c2, ToDnnl(spec.inputs[2].dtype));
    // beta != 1 and an [M,1] C are prepared in f32 (PrepareC).
    const bool prepared = p.beta != 1.0f || (c2[0] > 1 && c2[1] == 1 && n > 1);
    if (prepared && spec.inputs[2].dtype != DataType::kFloat32)
      return Unsupported("Gemm: a " + std::string(DataTypeName(spec.inputs[2].dtype)) + " C with beta != 1 or [M,1]");
  }
  return p;
}

// FusedMatMul(A, B, bias): A [..., M, K] (batch folded into M), B [K, N],
// bias of N values: the Gemm plan with C as a [1, N] bias, which the kernel
// passes to oneDNN as the primitive's bias.
Result<MatMulPlan> PlanFusedMatMul(const KernelSpec& spec) {
  if (spec.inputs.size() != 3 || !spec.inputs[2].present())
    return InvalidArgument("FusedMatMul takes A, B and bias");
  const dims& a = spec.inputs[0].dims;
  const dims& b = spec.inputs[1].dims;
  if (a.size() < 2 || b.size() != 2)
    return Unsupported("FusedMatMul: A " + DimsString(a) + " must have rank >= 2 and B " + DimsString(b) + " be 2-D");
  KernelSpec mm = spec;
  mm.inputs.resize(2);
  GE_ASSIGN_OR_RETURN(MatMulPlan p, PlanMatMul(mm));
  const int64_t n = b[1];
  if (spec.inputs[2].NumElements() != n)
    return InvalidArgument("FusedMatMul: bias " + DimsString(spec.inputs[2].dims) + " must have " + std::to_string(n) +
                           " values");
  if (spec.inputs[2].dtype != DataType::kFloat32) return Unsupported("FusedMatMul: bias must be f32");
  p.has_c = true;
  p.c = PlainDesc({1, n});
  return p;
}

// How C enters the primitive; Init and Pack must decide alike.
struct CPlan {
  bool bias = false;     // [1,N] with alpha 1: the primitive's bias
  bool prepare = false;  // beta * C (expanded) computed into a buffer first
  int64_t rows = 1, cols = 1;          // C as given (2-D, broadcast dims 1)
  int64_t buf_rows = 1, buf_cols = 1;  // the buffer the primitive reads
  dnnl::memory::desc md;               // what the primitive reads for C
};

CPlan PlanC(const MatMulPlan& p) {
  CPlan c;
  if (!p.has_c) return c;
  const auto& y_dims = p.dst.dims();
  const auto& cd = p.c.dims();
  c.rows = cd[0];
  c.cols = cd[1];
  // [1,N] with alpha 1 is a bias, fused in the GEMM. oneDNN's jit GEMM
  // takes a binary add of C broadcast as [1,1], [1,N] or [M,N] but falls
  // back to a reference kernel for [M,1]: that one is expanded to [M,N].
  c.bias = p.alpha == 1.0f && c.rows == 1 && c.cols == y_dims[1] && c.cols > 1;
  const bool expand = c.rows > 1 && c.cols == 1 && y_dims[1] > 1;
  c.md = expand ? PlainDesc({y_dims[0], y_dims[1]}) : p.c;
  c.buf_rows = expand ? y_dims[0] : c.rows;
  c.buf_cols = expand ? y_dims[1] : c.cols;
  c.prepare = expand || p.beta != 1.0f;
  return c;
}

// Constant weights: oneDNN chooses their layout (and A's type) and they are
// packed once (or ahead, by Pack). A variable B of another type than A is
// converted per run.
dnnl::memory::desc WeightsDesc(const MatMulPlan& p, bool b_const) {
  const auto compute = p.src.data_type();
  if (b_const) return dnnl::memory::desc(p.wei.dims(), compute, tag::any);
  return p.wei.data_type() != compute ? PlainDesc(p.wei.dims(), compute) : p.wei;
}

dnnl::matmul::primitive_desc MatMulPd(const MatMulPlan& p, const CPlan& c, bool b_const) {
  dnnl::primitive_attr attr = ScratchpadAttr();
  if (p.alpha != 1.0f) attr.set_output_scales(0, {p.alpha});
  dnnl::post_ops ops;
  if (p.has_c && !c.bias) ops.append_binary(dnnl::algorithm::binary_add, c.md);
  AppendPostAct(ops, p.act, p.dst);
  attr.set_post_ops(ops);
  const auto wei_md = WeightsDesc(p, b_const);
  auto desc = c.bias ? dnnl::matmul::desc(p.src, wei_md, c.md, p.dst) : dnnl::matmul::desc(p.src, wei_md, p.dst);
  return dnnl::matmul::primitive_desc(desc, attr, Engine());
}

class MatMulKernel final : public DnnlKernel {
 public:
  explicit MatMulKernel(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec, const MatMulPlan& p) {
    const void* b_const = spec.ConstInput(1);
    const bool convert_b = !b_const && p.wei.data_type() != p.src.data_type();
    const CPlan cp = PlanC(p);
    c_rows_ = cp.rows;
    c_cols_ = cp.cols;
    c_buf_rows_ = cp.buf_rows;
    c_buf_cols_ = cp.buf_cols;
    c_bias_ = cp.bias;
    prepare_c_ = cp.prepare;
    beta_ = p.beta;
    const dnnl::memory::desc& c_md = cp.md;
    const dnnl::matmul::primitive_desc pd = MatMulPd(p, cp, b_const != nullptr);

    a_ = UserMemory(p.src);
    b_ = UserMemory(p.wei);
    y_ = UserMemory(p.dst);
    dnnl::memory w = b_;
    bind_b_ = !b_const;
    if (b_const) {
      Bind(b_, b_const);
      if (pd.weights_desc() != p.wei) {
        GE_ASSIGN_OR_RETURN(packed_b_, PackedWeights(spec, 1, stream(), b_, pd.weights_desc()));
        w = *packed_b_;
      }
    } else if (convert_b) {
      w = dnnl::memory(pd.weights_desc(), Engine());
      step_.push_back(MakeReorder(b_, w));
    }
    std::vector<std::pair<int, dnnl::memory>> args = {{DNNL_ARG_SRC, a_}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, y_}};
    if (p.has_c) {
      const void* c_const = spec.ConstInput(2);
      if (prepare_c_) {
        c_ = dnnl::memory(c_md, Engine());  // beta * C, expanded if needed
        if (c_const) PrepareC(c_const);
        prepare_per_run_ = !c_const;
      } else {
        c_ = UserMemory(c_md);
        if (c_const) Bind(c_, c_const);
        bind_c_ = !c_const;
      }
      args.emplace_back(c_bias_ ? DNNL_ARG_BIAS : (DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1), c_);
    }
    step_.emplace_back(dnnl::matmul(pd), pd, std::move(args));
    if (ActAfter(p.act, p.dst)) {
      act_ = p.act;
      act_values_ = spec.outputs[0].NumElements();
    }
    LogImpl(spec, "matmul", pd, !b_const ? "weights:variable"
                                : w == b_ ? "weights:plain"
                                : spec.Packed(1) && w.get_data_handle() == spec.Packed(1)->data ? "weights:packed-ahead"
                                                                                                 : "weights:packed-once");
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    Bind(a_, in[0]);
    if (bind_b_) Bind(b_, in[1]);
    if (bind_c_) Bind(c_, in[2]);
    if (prepare_per_run_) PrepareC(in[2]);
    Bind(y_, out[0]);
    GE_RETURN_IF_ERROR(Execute(step_));
    if (act_values_) {
      GE_RETURN_IF_ERROR(Wait());
      RunActivationAfter(act_, static_cast<float*>(out[0]), act_values_);
    }
    return Status::Ok();
  }

 private:
  // c_ = beta * C, C [c_rows_, c_cols_] broadcast to c_'s shape.
  void PrepareC(const void* src) {
    const auto* c = static_cast<const float*>(src);
    auto* d = static_cast<float*>(c_.get_data_handle());
    for (int64_t i = 0; i < c_buf_rows_; ++i)
      for (int64_t j = 0; j < c_buf_cols_; ++j)
        d[i * c_buf_cols_ + j] = beta_ * c[(c_rows_ == 1 ? 0 : i) * c_cols_ + (c_cols_ == 1 ? 0 : j)];
  }

  dnnl::memory a_, b_, y_, c_;
  std::shared_ptr<const dnnl::memory> packed_b_;  // constant weights, shared with other kernels
  bool bind_b_ = true, bind_c_ = false, c_bias_ = false, prepare_c_ = false, prepare_per_run_ = false;
  int64_t c_rows_ = 1, c_cols_ = 1;          // C as given (2-D, broadcast dims 1)
  int64_t c_buf_rows_ = 1, c_buf_cols_ = 1;  // c_ as the primitive reads it
  float beta_ = 1.0f;
  Activation act_;  // run after the step when act_values_ > 0
  int64_t act_values_ = 0;
  std::vector<Step> step_;
};

// A product over an empty inner dim K with a non-empty output sums over
// nothing: the result is act(beta * C), or act(0). It is computed as the same
// product over K = 1 with zero operands, so C's broadcast and the activation
// stay the plan's. With the output non-empty, K is the only dim of A and B
// that can be 0 (a 0 in M, N or a batch dim empties the output, and the
// registry creates no op kernel for that), so every 0 of both becomes 1.
bool EmptyInnerDim(const KernelSpec& spec) {
  return spec.inputs.size() >= 2 && spec.outputs.size() == 1 && spec.outputs[0].NumElements() > 0 &&
         spec.inputs[0].NumElements() == 0 && spec.inputs[1].NumElements() == 0;
}

KernelSpec WithUnitInnerDim(const KernelSpec& spec) {
  KernelSpec s = spec;
  for (size_t i = 0; i < 2; ++i)
    for (int64_t& d : s.inputs[i].dims)
      if (d == 0) d = 1;
  if (s.const_inputs.size() > 1) s.const_inputs[1] = nullptr;  // the zeros are bound per run
  s.packed_inputs.clear();
  return s;
}

// Runs `inner` (created for WithUnitInnerDim) with zero A and B.
class EmptyInnerDimKernel final : public Kernel {
 public:
  EmptyInnerDimKernel(std::unique_ptr<Kernel> inner, const KernelSpec& unit)
      : inner_(std::move(inner)), zeros_(nullptr, &std::free), inputs_(unit.inputs.size(), nullptr) {
    // One aligned buffer of zeros, as large as the larger of A and B, serves both.
    const size_t bytes =
        (std::max(unit.inputs[0].Bytes(), unit.inputs[1].Bytes()) / kDefaultAlignment + 1) * kDefaultAlignment;
    zeros_.reset(std::aligned_alloc(kDefaultAlignment, bytes));
    if (zeros_) std::memset(zeros_.get(), 0, bytes);
  }
  bool ok() const { return zeros_ != nullptr; }
  Status Run(const void* const* inputs, void* const* outputs) override {
    for (size_t i = 0; i < inputs_.size(); ++i) inputs_[i] = i < 2 ? zeros_.get() : inputs[i];
    return inner_->Run(inputs_.data(), outputs);
  }

 private:
  std::unique_ptr<Kernel> inner_;
  std::unique_ptr<void, decltype(&std::free)> zeros_;
  std::vector<const void*> inputs_;
};

// Plans the product as given, or over K = 1 when the inner dim is empty.
template <Result<MatMulPlan> (*Plan)(const KernelSpec&)>
Status Supports(const KernelSpec& spec) {
  return SupportsPlan<Plan>(EmptyInnerDim(spec) ? WithUnitInnerDim(spec) : spec);
}

template <Result<MatMulPlan> (*Plan)(const KernelSpec&)>
Result<std::unique_ptr<Kernel>> Create(const KernelSpec& spec) {
  if (!EmptyInnerDim(spec)) return CreatePlanned<MatMulKernel, Plan>(spec);
  const KernelSpec unit = WithUnitInnerDim(spec);
  GE_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> inner, (CreatePlanned<MatMulKernel, Plan>(unit)));
  auto k = std::make_unique<EmptyInnerDimKernel>(std::move(inner), unit);
  if (!k->ok()) return Internal("out of memory for the zero operands of an empty inner dim");
  return std::unique_ptr<Kernel>(std::move(k));
}

template <Result<MatMulPlan> (*Plan)(const KernelSpec&)>
Result<std::vector<PackedConstant>> Pack(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Result<std::vector<PackedConstant>> {
    const void* b = spec.ConstInput(1);
    if (!b || EmptyInnerDim(spec)) return std::vector<PackedConstant>{};  // nothing to pack: B is empty
    GE_ASSIGN_OR_RETURN(MatMulPlan p, Plan(spec));
    const auto pd = MatMulPd(p, PlanC(p), true);
    dnnl::memory plain(p.wei, Engine(), const_cast<void*>(b));
    return PackAhead(1, plain, pd.weights_desc());
  });
}

}  // namespace

void RegisterMatMulKernels(KernelRegistry& r) {
  r.Register("MatMul", Supports<PlanMatMul>, Create<PlanMatMul>);
  r.Register("Gemm", Supports<PlanGemm>, Create<PlanGemm>);
  r.Register("FusedMatMul", Supports<PlanFusedMatMul>, Create<PlanFusedMatMul>);
  r.SetPacker("MatMul", Pack<PlanMatMul>);
  r.SetPacker("Gemm", Pack<PlanGemm>);
  r.SetPacker("FusedMatMul", Pack<PlanFusedMatMul>);
}

}  // namespace ge::hal
