#include "kernels/int8_conv.h"

namespace ge::hal {

using namespace dnnl_util;

Result<std::unique_ptr<Int8Conv>> Int8Conv::Create(const std::vector<int64_t>& x_dims,
                                                   const std::vector<int64_t>& w_dims,
                                                   const std::vector<int64_t>& y_dims, const Window& win,
                                                   DataType x_type, DataType w_type, const void* w_const) {
  std::unique_ptr<Int8Conv> c(new Int8Conv());
  c->w_u8_ = w_type == DataType::kUInt8;
  c->w_const_ = w_const != nullptr;
  using dt = dnnl::memory::data_type;
  const dt xt = x_type == DataType::kUInt8 ? dt::u8 : dt::s8;
  const auto any = [](const std::vector<int64_t>& d, dt t) {
    return dnnl::memory::desc(ToDims(d), t, dnnl::memory::format_tag::any);
  };
  dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                       any(x_dims, xt), any(w_dims, dt::s8), any(y_dims, dt::s32),
                                       win.DnnlStrides(), win.DnnlDilations(), win.PadL(), win.PadR());
  dnnl::primitive_attr attr = ScratchpadAttr();
  attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
  dnnl::convolution_forward::primitive_desc pd(desc, attr, Engine());

  c->x_ = UserMemory(PlainDesc(x_dims, xt));
  c->w_ = UserMemory(PlainDesc(w_dims, dt::s8));
  c->y_ = UserMemory(PlainDesc(y_dims, dt::s32));
  c->x_zp_ = UserMemory(dnnl::memory::desc({1}, dt::s32, dnnl::memory::format_tag::a));
  Bind(c->x_zp_, &c->x_zp_value_);
  size_t w_count = 1;
  for (int64_t d : w_dims) w_count *= static_cast<size_t>(d);
  if (c->w_u8_) c->w_shifted_.resize(w_count);

  dnnl::memory x = c->x_, w = c->w_, y = c->y_;
  if (pd.src_desc() != c->x_.get_desc()) {
    x = dnnl::memory(pd.src_desc(), Engine());
    c->steps_.push_back(MakeReorder(c->x_, x));
  }
  if (c->w_const_) {
    if (c->w_u8_) c->ShiftW(w_const);
    Bind(c->w_, c->w_u8_ ? static_cast<const void*>(c->w_shifted_.data()) : w_const);
    if (pd.weights_desc() != c->w_.get_desc()) {
      if (c->w_u8_) {  // the shifted copy is this kernel's own: packed into its own memory
        w = dnnl::memory(pd.weights_desc(), Engine());
        GE_RETURN_IF_ERROR(ReorderNow(c->stream_, c->w_, w));
        c->w_shifted_ = {};
      } else {
        GE_ASSIGN_OR_RETURN(c->packed_w_, SharedPackedConstant(c->stream_, c->w_, pd.weights_desc()));
        w = *c->packed_w_;
      }
    }
  } else {
    if (c->w_u8_) Bind(c->w_, c->w_shifted_.data());
    if (pd.weights_desc() != c->w_.get_desc()) {
      w = dnnl::memory(pd.weights_desc(), Engine());
      c->steps_.push_back(MakeReorder(c->w_, w));
    }
  }
  const bool reorder_dst = pd.dst_desc() != c->y_.get_desc();
  if (reorder_dst) y = dnnl::memory(pd.dst_desc(), Engine());
  c->steps_.emplace_back(dnnl::convolution_forward(pd), pd,
                         std::vector<std::pair<int, dnnl::memory>>{
                             {DNNL_ARG_SRC, x},
                             {DNNL_ARG_WEIGHTS, w},
                             {DNNL_ARG_DST, y},
                             {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, c->x_zp_}});
  if (reorder_dst) c->steps_.push_back(MakeReorder(y, c->y_));
  return c;
}

void Int8Conv::ShiftW(const void* w) {
  const auto* src = static_cast<const uint8_t*>(w);
  for (size_t i = 0; i < w_shifted_.size(); ++i) w_shifted_[i] = static_cast<int8_t>(static_cast<int32_t>(src[i]) - 128);
}

Status Int8Conv::Run(const void* x, const void* w, int32_t x_zp, int32_t* acc) {
  Bind(x_, x);
  if (!w_const_) {
    if (w_u8_) ShiftW(w);
    else Bind(w_, w);
  }
  x_zp_value_ = x_zp;
  Bind(y_, acc);
  return ExecuteAndWait(stream_, steps_);
}

}  // namespace ge::hal
