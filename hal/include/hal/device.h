// A device: its capabilities, its kernels, its memory, streams and events.
// The compiler asks Capabilities() and kernels().Supports(); it hard-codes
// nothing about what a backend can do.
#pragma once

#include <memory>
#include <string>

#include "hal/event.h"
#include "hal/kernel.h"
#include "hal/memory.h"
#include "hal/stream.h"

namespace ge::hal {

struct Capabilities {
  std::string name;
  int max_streams = 1;
  bool async_copy = false;
  bool events = true;
  bool in_place = true;
  int compute_threads = 1;
  // The layout in which this device's convolutions are fastest, as a
  // TensorInfo::channel_block (8, 16, kChannelsLast), or 0 when it prefers
  // plain; the compiler's layout stage keeps activations between
  // convolutions in it.
  int channel_block = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const Capabilities& capabilities() const = 0;
  virtual const KernelRegistry& kernels() const = 0;
  virtual std::unique_ptr<Stream> CreateStream() = 0;
  virtual std::unique_ptr<Event> CreateEvent() = 0;
};

// The CPU backend (process-wide, created on first use).
Device& CpuDevice();

}  // namespace ge::hal
