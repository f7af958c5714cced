#include "kernels/weighted_primitive.h"

#include "kernels/packed_weights.h"

namespace ge::hal::dnnl_util {

void WeightedPrimitiveKernel::MakeUserMemories(const KernelSpec& spec, const dnnl::memory::desc& x,
                                               const dnnl::memory::desc& w, const dnnl::memory::desc& b,
                                               const dnnl::memory::desc& y) {
  x_ = UserMemory(x);
  w_ = UserMemory(w);
  y_ = UserMemory(y);
  if (const void* w_const = spec.ConstInput(1)) Bind(w_, w_const);
  bind_w_ = !spec.ConstInput(1);
  if (b.is_zero()) return;
  b_ = UserMemory(b);
  if (const void* b_const = spec.ConstInput(2)) Bind(b_, b_const);
  bind_b_ = !spec.ConstInput(2);
}

dnnl::memory WeightedPrimitiveKernel::SourceFor(const dnnl::memory::desc& want) {
  if (want == x_.get_desc()) return x_;
  dnnl::memory x = Temporary(want);
  steps_.push_back(MakeReorder(x_, x));
  return x;
}

Result<dnnl::memory> WeightedPrimitiveKernel::WeightsFor(const KernelSpec& spec, const dnnl::memory::desc& want) {
  if (want == w_.get_desc()) return w_;
  if (!bind_w_) {
    GE_ASSIGN_OR_RETURN(packed_w_, PackedWeights(spec, 1, stream(), w_, want));
    return *packed_w_;
  }
  dnnl::memory w = Temporary(want);
  steps_.push_back(MakeReorder(w_, w));
  return w;
}

dnnl::memory WeightedPrimitiveKernel::DestinationFor(const dnnl::memory::desc& want) {
  return want == y_.get_desc() ? y_ : Temporary(want);
}

void WeightedPrimitiveKernel::AddPrimitive(dnnl::primitive prim, const dnnl::primitive_desc_base& pd,
                                           const dnnl::memory& x, const dnnl::memory& w, const dnnl::memory& y) {
  std::vector<std::pair<int, dnnl::memory>> args = {{DNNL_ARG_SRC, x}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, y}};
  if (b_) args.emplace_back(DNNL_ARG_BIAS, b_);
  steps_.emplace_back(std::move(prim), pd, std::move(args));
  if (y != y_) steps_.push_back(MakeReorder(y, y_));
}

void WeightedPrimitiveKernel::BindInputs(const void* const* in) const {
  Bind(x_, in[0]);
  if (bind_w_) Bind(w_, in[1]);
  if (bind_b_) Bind(b_, in[2]);
}

std::string WeightedPrimitiveKernel::WeightsLog(const KernelSpec& spec, const dnnl::memory& w) const {
  if (w == w_) return "weights:plain";
  if (bind_w_) return "weights:reordered-per-run";
  const PackedInput* ahead = spec.Packed(1);
  return ahead && packed_w_->get_data_handle() == ahead->data ? "weights:packed-ahead" : "weights:packed-once";
}

}  // namespace ge::hal::dnnl_util
