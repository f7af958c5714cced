// The CPU backend's pieces, private to it: the device (cpu_device.cc) puts
// them behind hal::Device.
#pragma once

#include <memory>

#include "hal/event.h"
#include "hal/model.h"
#include "hal/stream.h"

namespace ge::hal {

std::unique_ptr<Stream> CreateCpuStream();
std::unique_ptr<Event> CreateCpuEvent();

// Stream 0 of a single-stream model runs on the calling thread when Execute
// has no timeout (no hand-off at all); otherwise each stream has a worker
// thread that spins briefly between runs and then sleeps on a futex.
Result<std::unique_ptr<Model>> CreateCpuModel(ModelDesc desc);

// The compute threads each of `num_streams` parallel streams gets (its share
// of the cores; 0 = all, for one stream).
int CpuThreadsPerStream(size_t num_streams);

// oneDNN fixes a primitive's thread count when it is created: kernels made
// while one of these lives get their stream's share.
class CpuComputeShare {
 public:
  explicit CpuComputeShare(size_t num_streams);
  ~CpuComputeShare();
  CpuComputeShare(const CpuComputeShare&) = delete;
  CpuComputeShare& operator=(const CpuComputeShare&) = delete;

 private:
  int saved_ = 0;  // 0: nothing to restore
};

}  // namespace ge::hal
