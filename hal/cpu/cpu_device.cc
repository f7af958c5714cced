// The CPU backend: streams are worker threads, kernels come from oneDNN and
// our own loops (registered in cpu_kernels.cc).
#include <thread>

#include "hal/cpu/cpu_kernels.h"
#include "hal/cpu/kernels/dnnl_context.h"
#include "hal/device.h"

namespace ge::hal {
namespace {

class CpuDeviceImpl final : public Device {
 public:
  CpuDeviceImpl() {
    caps_.name = "cpu";
    caps_.max_streams = 8;
    caps_.async_copy = false;
    caps_.events = true;
    caps_.in_place = true;
    caps_.compute_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    caps_.channel_block = dnnl_util::PreferredConvLayout();
    RegisterCpuKernels(kernels_);
  }
  const Capabilities& capabilities() const override { return caps_; }
  const KernelRegistry& kernels() const override { return kernels_; }
  std::unique_ptr<Stream> CreateStream() override { return CreateCpuStream(); }
  std::unique_ptr<Event> CreateEvent() override { return CreateCpuEvent(); }

 private:
  Capabilities caps_;
  KernelRegistry kernels_;
};

}  // namespace

Device& CpuDevice() {
  static CpuDeviceImpl device;
  return device;
}

}  // namespace ge::hal
