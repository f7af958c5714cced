// One tensor in a file, in the three forms msame and ais_bench read and
// write: NumPy .npy, raw bytes (.bin: the tensor's bytes, C order, nothing
// else) and text (.txt: one row of the last dimension per line). ge-run's
// --input and --output --outfmt use these.
#pragma once

#include <string>
#include <vector>

#include "ge/ir/tensor_desc.h"
#include "ge_base/status.h"

namespace ge::tools {

enum class TensorFileFormat { kNpy, kBin, kTxt };

// "NPY", "BIN" or "TXT" (any case); an error naming the accepted values otherwise.
Result<TensorFileFormat> ParseTensorFileFormat(const std::string& name);
// "npy", "bin" or "txt": the file name extension of the format.
const char* TensorFileExtension(TensorFileFormat format);

// The bytes of a tensor of `desc` (static shape) read from `path`: a .npy
// file must have desc's dtype and shape; any other file is raw bytes whose
// size must equal desc.Bytes(). Errors name the file, what it holds and what
// was expected ("x.bin: 100 bytes, expected 3072 bytes (f32[1,3,16,16])").
Result<std::vector<uint8_t>> ReadTensorFile(const std::string& path, const TensorDesc& desc);

// Whether a typed file (.npy, ONNX TensorProto) of dtype `file` may feed a
// tensor of dtype `want`: the same dtype, or u16 bits for bf16, which numpy
// and ONNX's test data have no type for (WriteNpy writes bf16 so too).
bool FileDtypeFits(DataType file, DataType want);

// The values as text: one line per row of the last dimension (a scalar or a
// 1-D tensor is one line), values separated by one space; floating point in
// the shortest form that reads back to the same float (%.9g, %.17g for f64),
// integers and bools as integers
// (exact up to 2^53).
std::string TensorToText(const TensorDesc& desc, const void* data);

// Writes desc.Bytes() bytes at `data` to `path` in `format`, atomically
// (ge_base/file_io.h). Errors name the path.
Status WriteTensorFile(const std::string& path, TensorFileFormat format, const TensorDesc& desc, const void* data);

}  // namespace ge::tools
