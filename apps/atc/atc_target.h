// --soc_version: which CPU the .om is compiled for. The target decides the
// activation layouts the compiler picks (the kernels themselves are chosen
// at run time by oneDNN for the CPU that runs the model, so every target runs
// everywhere, fastest on its own CPU). Ascend names are accepted for drop-in
// use of atc command lines and compile for this machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ge_base/status.h"

namespace ge::atc {

struct Target {
  std::string name;                      // cpu | cpu_avx2 | cpu_avx512: recorded in the .om
  std::optional<int32_t> channel_block;  // the layout; unset: the device's own preference
  std::string warning;                   // one line for an Ascend name, else empty
};

// `native_block` is the running device's preferred channel block
// (hal Capabilities::channel_block), which names the native target.
Result<Target> ResolveSocVersion(const std::string& flag, int32_t native_block);

// --input_format: ATC's values for the framework (5 ONNX: NCHW, ND, NCDHW;
// 3 TensorFlow: NHWC, NCHW, ND, NDHWC, NCDHW). "" is the framework's default.
Result<std::string> CheckInputFormat(const std::string& flag, int framework);

}  // namespace ge::atc
