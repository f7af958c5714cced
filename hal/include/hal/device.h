// A device: its capabilities, its kernels, its memory, streams, events and
// models. The compiler asks capabilities() and kernels().Supports(); the
// runtimes allocate, create kernels and models through this interface only,
// so neither knows which backend it runs on.
//
// Backends register themselves by name (RegisterDevice, at static
// initialisation); everyone else finds them by name (GetDevice): `--device`,
// or the target recorded in the .om.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hal/event.h"
#include "hal/kernel.h"
#include "hal/memory.h"
#include "hal/model.h"
#include "hal/stream.h"

namespace ge::hal {

struct Capabilities {
  std::string name;
  int max_streams = 1;
  bool async_copy = false;
  bool events = true;
  bool in_place = true;
  // The host reads and writes this device's memory directly (the compiler
  // evaluates constants on such a device).
  bool host_memory = false;
  int compute_threads = 1;
  // The layout in which this device's convolutions are fastest, as a
  // TensorInfo::channel_block (8, 16, kChannelsLast), or 0 when it prefers
  // plain; the compiler's layout stage keeps activations between
  // convolutions in it.
  int channel_block = 0;
  // Computes bfloat16 natively (the CPU's AVX512-BF16 or AMX): the
  // compiler's reduced-precision modes (--precision_mode) need it.
  bool bf16 = false;
  // Has a Winograd algorithm for 3x3 stride-1 f32 convolutions (oneDNN's
  // AVX-512 kernels): the compiler's conv_winograd pass may ask for it.
  bool winograd_conv = false;
  // The layout those Winograd kernels read and write (a channel_block, 16
  // on AVX-512), 0 without them. Where it is not channel_block, a Winograd
  // conv reorders its input in and its output out, so the layout stage
  // picks it for a model with enough Winograd work (blocked_layout).
  int winograd_channel_block = 0;
};

// While one is alive, kernels created on its device are sized to run on one
// of several streams at once (a CPU backend gives each its share of the
// cores: a kernel made for every core, run by two streams at once,
// oversubscribes them).
class ComputeShare {
 public:
  virtual ~ComputeShare() = default;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const Capabilities& capabilities() const = 0;
  virtual const KernelRegistry& kernels() const = 0;
  // `bytes` of device memory aligned to `alignment` (a power of two); 0 bytes
  // gives an empty buffer. Errors name the size.
  virtual Result<DeviceBuffer> Allocate(size_t bytes, size_t alignment = kDefaultAlignment) = 0;
  virtual std::unique_ptr<Stream> CreateStream() = 0;
  virtual std::unique_ptr<Event> CreateEvent() = 0;
  // Pre-distributed task lists run whole by one call (hal/model.h). Errors:
  // an invalid event id, an event recorded twice, a wait without a record, a
  // wait cycle (kInvalidArgument naming the stream and task).
  virtual Result<std::unique_ptr<Model>> CreateModel(ModelDesc desc) = 0;
  // See ComputeShare; num_streams <= 1 changes nothing.
  virtual std::unique_ptr<ComputeShare> ShareCompute(size_t num_streams) = 0;
};

// ------------------------------------------------------------------ registry

using DeviceFactory = std::function<Result<std::unique_ptr<Device>>()>;

// Registers a backend under `name` (lower case, e.g. "cpu"); the device is
// created by `factory` on first use and lives until the process exits.
// Registering a taken name is an error. Thread-safe.
Status RegisterDevice(const std::string& name, DeviceFactory factory);

// The device registered as `name`; "" is the default device (the first
// registered). Unknown names are kNotFound listing the registered ones.
Result<Device*> GetDevice(const std::string& name = "");

// A device whose memory the host reads directly (Capabilities::host_memory),
// for work the compiler does itself (constant evaluation).
Result<Device*> GetHostDevice();

// Registered names, in registration order.
std::vector<std::string> DeviceNames();

}  // namespace ge::hal
