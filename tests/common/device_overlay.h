// A device that is another registered device (the CPU) with some capabilities
// or kernels changed, registered under a name of the test's own: a layout
// preference, a deliberately slow kernel. The product's devices never see
// the change; compiler and runtimes reach the overlay by name, as they reach
// any device.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "hal/device.h"

namespace ge::test {

class DeviceOverlay final : public hal::Device {
 public:
  explicit DeviceOverlay(hal::Device& base) : base_(base), caps_(base.capabilities()), kernels_(base.kernels()) {}
  hal::Capabilities& caps() { return caps_; }
  hal::KernelRegistry& registry() { return kernels_; }

  const hal::Capabilities& capabilities() const override { return caps_; }
  const hal::KernelRegistry& kernels() const override { return kernels_; }
  Result<hal::DeviceBuffer> Allocate(size_t bytes, size_t alignment) override { return base_.Allocate(bytes, alignment); }
  std::unique_ptr<hal::Stream> CreateStream() override { return base_.CreateStream(); }
  std::unique_ptr<hal::Event> CreateEvent() override { return base_.CreateEvent(); }
  Result<std::unique_ptr<hal::Model>> CreateModel(hal::ModelDesc desc) override { return base_.CreateModel(std::move(desc)); }
  std::unique_ptr<hal::ComputeShare> ShareCompute(size_t num_streams) override { return base_.ShareCompute(num_streams); }

 private:
  hal::Device& base_;
  hal::Capabilities caps_;
  hal::KernelRegistry kernels_;
};

// Registers `name` as the default device changed by `customise`, once per
// process (devices live until exit); returns the name for CompileOptions::
// device / SinkOptions::device.
inline std::string RegisterOverlay(const std::string& name, const std::function<void(DeviceOverlay&)>& customise) {
  if (hal::GetDevice(name).ok()) return name;
  Status s = hal::RegisterDevice(name, [customise]() -> Result<std::unique_ptr<hal::Device>> {
    GE_ASSIGN_OR_RETURN(hal::Device * base, hal::GetDevice());
    auto d = std::make_unique<DeviceOverlay>(*base);
    customise(*d);
    return std::unique_ptr<hal::Device>(std::move(d));
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
  return name;
}

}  // namespace ge::test
