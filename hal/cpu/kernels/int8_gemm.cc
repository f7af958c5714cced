#include "kernels/int8_gemm.h"

namespace ge::hal {

using namespace dnnl_util;

Result<std::unique_ptr<Int8Gemm>> Int8Gemm::Create(int64_t m, int64_t k, int64_t n, DataType a_type, DataType b_type,
                                                   const void* b_const) {
  std::unique_ptr<Int8Gemm> g(new Int8Gemm());
  g->k_ = k;
  g->n_ = n;
  g->b_u8_ = b_type == DataType::kUInt8;
  g->b_const_ = b_const != nullptr;
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  const dnnl::memory::desc a_md({m, k}, a_type == DataType::kUInt8 ? dt::u8 : dt::s8, tag::ab);
  const dnnl::memory::desc b_md({k, n}, dt::s8, tag::ab);
  const dnnl::memory::desc acc_md({m, n}, dt::s32, tag::ab);
  const dnnl::memory::desc zp_md({1}, dt::s32, tag::a);
  dnnl::primitive_attr attr = ScratchpadAttr();
  attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
  attr.set_zero_points(DNNL_ARG_WEIGHTS, 0, {DNNL_RUNTIME_S32_VAL});
  // Constant weights go in the layout the primitive likes; others as given.
  const dnnl::memory::desc wei_any = g->b_const_ ? dnnl::memory::desc({k, n}, dt::s8, tag::any) : b_md;
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, wei_any, acc_md), attr, Engine());
  g->a_ = UserMemory(a_md);
  g->b_ = UserMemory(b_md);
  g->acc_ = UserMemory(acc_md);
  g->a_zp_ = UserMemory(zp_md);
  g->b_zp_ = UserMemory(zp_md);
  Bind(g->a_zp_, &g->a_zp_value_);
  Bind(g->b_zp_, &g->b_zp_value_);
  if (g->b_u8_) g->b_shifted_.resize(static_cast<size_t>(k * n));
  dnnl::memory w = g->b_;
  if (g->b_const_ && !g->b_u8_) {
    // Packed once, shared with every kernel packing the same constant.
    Bind(g->b_, b_const);
    if (pd.weights_desc() != b_md) {
      GE_ASSIGN_OR_RETURN(g->packed_b_, SharedPackedConstant(g->stream_, g->b_, pd.weights_desc()));
      w = *g->packed_b_;
    }
  } else if (g->b_const_) {
    // The shifted copy is this kernel's own: packed into its own memory.
    g->ShiftB(b_const);
    Bind(g->b_, g->b_shifted_.data());
    w = dnnl::memory(pd.weights_desc(), Engine());
    GE_RETURN_IF_ERROR(ReorderNow(g->stream_, g->b_, w));
    g->b_shifted_ = {};
  } else if (g->b_u8_) {
    Bind(g->b_, g->b_shifted_.data());
  }
  g->steps_.emplace_back(dnnl::matmul(pd), pd,
                         std::vector<std::pair<int, dnnl::memory>>{
                             {DNNL_ARG_SRC, g->a_},
                             {DNNL_ARG_WEIGHTS, w},
                             {DNNL_ARG_DST, g->acc_},
                             {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, g->a_zp_},
                             {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, g->b_zp_}});
  return g;
}

void Int8Gemm::ShiftB(const void* b) {
  if (!b_u8_) return;
  const auto* src = static_cast<const uint8_t*>(b);
  for (size_t i = 0; i < b_shifted_.size(); ++i) b_shifted_[i] = static_cast<int8_t>(static_cast<int32_t>(src[i]) - 128);
}

Status Int8Gemm::Run(const void* a, const void* b, int32_t a_zp, int32_t b_zp, int32_t* acc) {
  Bind(a_, a);
  if (!b_const_) {
    if (b_u8_) ShiftB(b);
    else Bind(b_, b);
  }
  a_zp_value_ = a_zp;
  b_zp_value_ = b_u8_ ? b_zp - 128 : b_zp;
  Bind(acc_, acc);
  return ExecuteAndWait(stream_, steps_);
}

}  // namespace ge::hal
