// TransData: moves a tensor between layouts (plain NCHW <-> channel-blocked
// nChw8c / nChw16c), the node the compiler's layout stage inserts where a
// blocked conv chain meets a consumer that takes plain memory. A oneDNN
// reorder; dims and bytes are the same on both sides.
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;

Status CheckTransData(const KernelSpec& spec) {
  if (spec.inputs.size() != 1 || !spec.inputs[0].present()) return InvalidArgument("TransData takes one input");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "TransData has one output"));
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  if (x.dtype != y.dtype || x.dims != y.dims)
    return InvalidArgument("TransData: output " + DimsString(y.dims) + " must have the input's dims and dtype " +
                           DimsString(x.dims));
  if (ToDnnl(x.dtype) == dnnl::memory::data_type::undef)
    return Unsupported(std::string("TransData: dtype ") + DataTypeName(x.dtype));
  GE_RETURN_IF_ERROR(CheckLayout(x, "TransData input"));
  return CheckLayout(y, "TransData output");
}

class TransDataKernel final : public DnnlKernel {
 public:
  explicit TransDataKernel(const KernelSpec& spec)
      : DnnlKernel(spec), x_(UserMemory(LayoutDesc(spec.inputs[0]))), y_(UserMemory(LayoutDesc(spec.outputs[0]))) {
    steps_.push_back(MakeReorder(x_, y_));
    bytes_ = spec.inputs[0].channel_block == spec.outputs[0].channel_block ? spec.outputs[0].Bytes() : 0;
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    if (bytes_) {  // same layout on both sides: a copy
      if (in[0] != out[0]) std::memcpy(out[0], in[0], bytes_);
      return Status::Ok();
    }
    Bind(x_, in[0]);
    Bind(y_, out[0]);
    return Execute(steps_);
  }

 private:
  dnnl::memory x_, y_;
  std::vector<Step> steps_;
  size_t bytes_ = 0;
};

}  // namespace

void RegisterLayoutKernels(KernelRegistry& r) {
  r.Register(
      "TransData", [](const KernelSpec& s) { return Guard(s, [&] { return CheckTransData(s); }); },
      [](const KernelSpec& s) -> Result<std::unique_ptr<Kernel>> {
        return Guard(s, [&]() -> Result<std::unique_ptr<Kernel>> {
          return std::unique_ptr<Kernel>(std::make_unique<TransDataKernel>(s));
        });
      },
      LayoutSupport::kOwn);
}

}  // namespace ge::hal
