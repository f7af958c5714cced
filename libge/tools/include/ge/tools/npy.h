// NumPy .npy files (format versions 1.0-3.0, C order, little-endian), for
// ge-run inputs, outputs and golden files.
#pragma once

#include <string>
#include <vector>

#include "ge/ir/tensor_desc.h"
#include "ge_base/status.h"

namespace ge {

struct NpyArray {
  TensorDesc desc;
  std::vector<uint8_t> bytes;
};

// Errors name the file: "x.npy: not a .npy file (bad magic)".
Result<NpyArray> ReadNpy(const std::string& path);
Result<NpyArray> ParseNpy(const std::string& bytes, const std::string& origin);
// Writes atomically (PATH.tmp, then rename).
Status WriteNpy(const std::string& path, const TensorDesc& desc, const void* data);

}  // namespace ge
