// What the Conv and ConvTranspose kernels share around their oneDNN
// primitive: X, W, an optional B and Y are user memories bound per run; X is
// reordered in and Y out where the primitive chose other layouts; constant
// weights are packed once (or ahead, in the .om) and a constant bias bound
// once, other weights reordered per run.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "kernels/dnnl_context.h"

namespace ge::hal::dnnl_util {

class WeightedPrimitiveKernel : public DnnlKernel {
 public:
  using DnnlKernel::DnnlKernel;

 protected:
  // x_, w_, y_ (and b_ when b is not zero) in the layouts the op declares;
  // constant W (input 1) and B (input 2) bound to their bytes for good.
  void MakeUserMemories(const KernelSpec& spec, const dnnl::memory::desc& x, const dnnl::memory::desc& w,
                        const dnnl::memory::desc& b, const dnnl::memory::desc& y);
  // X as the primitive reads it: x_, or a temporary it is reordered into.
  dnnl::memory SourceFor(const dnnl::memory::desc& want);
  // W as the primitive reads it: constant weights packed once (or ahead),
  // others reordered per run into a temporary.
  Result<dnnl::memory> WeightsFor(const KernelSpec& spec, const dnnl::memory::desc& want);
  // Y as the primitive writes it: y_, or a temporary that AddPrimitive
  // reorders out into y_.
  dnnl::memory DestinationFor(const dnnl::memory::desc& want);
  // The primitive's step on x, w, b_ and y, then y's reorder out.
  void AddPrimitive(dnnl::primitive prim, const dnnl::primitive_desc_base& pd, const dnnl::memory& x,
                    const dnnl::memory& w, const dnnl::memory& y);
  // Per run: X, and W and B where they are not constant (Y is the caller's).
  void BindInputs(const void* const* in) const;
  // "weights:packed-ahead" (in the .om), "packed-once", "reordered-per-run" or "plain".
  std::string WeightsLog(const KernelSpec& spec, const dnnl::memory& w) const;

  dnnl::memory x_, w_, b_, y_;
  std::vector<Step> steps_;

 private:
  std::shared_ptr<const dnnl::memory> packed_w_;  // constant weights, shared with other kernels
  bool bind_w_ = true, bind_b_ = false;
};

// Create's tail for a kernel K set up by K::Init(spec, plan).
template <typename K, typename Plan>
Result<std::unique_ptr<Kernel>> MakeInitialized(const KernelSpec& spec, const Plan& plan) {
  auto k = std::make_unique<K>(spec);
  GE_RETURN_IF_ERROR(k->Init(spec, plan));
  return std::unique_ptr<Kernel>(std::move(k));
}

}  // namespace ge::hal::dnnl_util
