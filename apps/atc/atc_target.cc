#include "atc/atc_target.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "common/app_common.h"
#include "hal/kernel.h"

namespace ge::atc {
namespace {

std::string NativeName(int32_t block) {
  if (block == hal::kChannelsLast || block == 16) return "cpu_avx512";
  if (block == 8) return "cpu_avx2";
  return "cpu";
}

}  // namespace

Result<Target> ResolveSocVersion(const std::string& flag, int32_t native_block) {
  const std::string v = app::ToLower(flag);
  if (v.empty() || v == "native") return Target{NativeName(native_block), std::nullopt, ""};
  if (v == "cpu") return Target{"cpu", 0, ""};  // plain layouts: no blocking, any x86-64
  if (v == "cpu_avx2") return Target{"cpu_avx2", 8, ""};                // nChw8c, what AVX2 convolutions read
  if (v == "cpu_avx512") return Target{"cpu_avx512", hal::kChannelsLast, ""};  // nhwc, AVX-512's brgemm kernels
  if (v.rfind("ascend", 0) == 0) {
    Target t{NativeName(native_block), std::nullopt, ""};
    t.warning = "--soc_version " + flag + ": ge compiles for the CPU; using the native target (" + t.name + ")";
    return t;
  }
  return InvalidArgument("--soc_version " + flag +
                         ": unknown target (CPU targets: native, cpu, cpu_avx2, cpu_avx512; Ascend names such as "
                         "Ascend310P3 mean native)");
}

Result<std::string> CheckInputFormat(const std::string& flag, int framework) {
  const std::vector<std::string> allowed = framework == 3 ? std::vector<std::string>{"NHWC", "NCHW", "ND", "NDHWC", "NCDHW"}
                                                          : std::vector<std::string>{"NCHW", "ND", "NCDHW"};
  if (flag.empty()) return allowed.front();
  if (std::find(allowed.begin(), allowed.end(), flag) != allowed.end()) return flag;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  return InvalidArgument("--input_format " + flag + " is not a format of " +
                         (framework == 3 ? "TensorFlow" : "ONNX") + " models (use one of " + list + ")");
}

}  // namespace ge::atc
