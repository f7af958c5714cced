// The tensor files ge-run reads: .npy and raw .bin (libge's tools) and ONNX
// TensorProto .pb (the ONNX backend test suite's form, read by the parsers).
#pragma once

#include <string>
#include <vector>

#include "ge/ir/tensor_desc.h"
#include "ge/tools/npy.h"
#include "ge_base/status.h"

namespace ge::run {

// The bytes of a model input of `desc` read from `path`; a .npy or .pb file
// must hold exactly desc's dtype and shape.
Result<std::vector<uint8_t>> ReadInputFile(const std::string& path, const TensorDesc& desc);

// An input of a dynamic model (`desc` may have unknown dims) read from
// `path` with the file's own dims: .npy and .pb carry them; a raw file takes
// `dims` (from --dymShape; empty: desc's, which must then be static). The
// dtype must be desc's and the dims must fit it; errors name the file.
Result<NpyArray> ReadShapedInputFile(const std::string& path, const TensorDesc& desc, const std::vector<int64_t>& dims);

// A golden output for --compare: .npy or .pb.
Result<NpyArray> ReadGoldenFile(const std::string& path);

}  // namespace ge::run
