// The CPU backend as a hal::Device: streams are worker threads, memory is
// 64-byte aligned host memory, kernels come from oneDNN and our own loops
// (registered in cpu_kernels.cc). Registered as "cpu" at static
// initialisation; nothing outside hal/cpu names it.
#include <cstdlib>
#include <thread>

#include "cpu_backend.h"
#include "cpu_kernels.h"
#include "hal/device.h"
#include "kernels/dnnl_context.h"

namespace ge::hal {
namespace {

// Nothing is larger than this (2^48 B): a size beyond it is a corrupt or
// hostile model, refused before the allocator is asked.
constexpr size_t kMaxAllocation = size_t{1} << 48;

void FreeHost(void* p) { std::free(p); }

class CpuComputeShareScope final : public ComputeShare {
 public:
  explicit CpuComputeShareScope(size_t num_streams) : share_(num_streams) {}

 private:
  CpuComputeShare share_;
};

class CpuDevice final : public Device {
 public:
  CpuDevice() {
    caps_.name = "cpu";
    caps_.max_streams = 8;
    caps_.async_copy = false;
    caps_.events = true;
    caps_.in_place = true;
    caps_.host_memory = true;
    caps_.compute_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    caps_.channel_block = dnnl_util::PreferredConvLayout();
    caps_.bf16 = dnnl_util::HasNativeBf16();
    caps_.winograd_conv = dnnl_util::HasWinogradConv();
    caps_.winograd_channel_block = caps_.winograd_conv ? dnnl_util::WinogradConvLayout() : 0;
    RegisterCpuKernels(kernels_);
  }
  const Capabilities& capabilities() const override { return caps_; }
  const KernelRegistry& kernels() const override { return kernels_; }

  Result<DeviceBuffer> Allocate(size_t bytes, size_t alignment) override {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
      return InvalidArgument("alignment " + std::to_string(alignment) + " is not a power of two");
    if (bytes == 0) return DeviceBuffer();
    if (bytes > kMaxAllocation)
      return InvalidArgument("allocation of " + std::to_string(bytes) + " bytes is impossible");
    const size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    void* p = std::aligned_alloc(alignment, rounded);
    if (!p) return Internal("device memory exhausted allocating " + std::to_string(bytes) + " bytes");
    return DeviceBuffer(p, bytes, FreeHost);
  }

  std::unique_ptr<Stream> CreateStream() override { return CreateCpuStream(); }
  std::unique_ptr<Event> CreateEvent() override { return CreateCpuEvent(); }
  Result<std::unique_ptr<Model>> CreateModel(ModelDesc desc) override { return CreateCpuModel(std::move(desc)); }
  std::unique_ptr<ComputeShare> ShareCompute(size_t num_streams) override {
    return std::make_unique<CpuComputeShareScope>(num_streams);
  }

 private:
  Capabilities caps_;
  KernelRegistry kernels_;
};

const bool kRegistered = RegisterDevice("cpu", []() -> Result<std::unique_ptr<Device>> {
                           return std::unique_ptr<Device>(std::make_unique<CpuDevice>());
                         }).ok();

}  // namespace
}  // namespace ge::hal
