#include "ge/tools/tensor_file.h"

#include <cctype>
#include <cstdio>
#include <cstring>

#include "ge/ir/tensor.h"
#include "ge/tools/npy.h"
#include "ge_base/file_io.h"
#include "ge_base/regular_file.h"

namespace ge::tools {
namespace {

bool EndsWithNpy(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".npy";
}

Result<std::vector<uint8_t>> ReadRaw(const std::string& path, const TensorDesc& desc) {
  GE_ASSIGN_OR_RETURN(OpenedFile file, OpenRegularFile(path));
  const uint64_t size = file.size;
  const int64_t want = desc.Bytes();
  if (want < 0) return InvalidArgument(path + ": the tensor " + desc.ToString() + " has no static size");
  if (size != static_cast<uint64_t>(want))
    return InvalidArgument(path + ": " + std::to_string(size) + " bytes, expected " + std::to_string(want) + " bytes (" +
                           desc.ToString() + ")");
  std::vector<uint8_t> bytes(static_cast<size_t>(want));
  GE_RETURN_IF_ERROR(ReadExactly(file, path, bytes.data(), bytes.size()));
  return bytes;
}

}  // namespace

Result<TensorFileFormat> ParseTensorFileFormat(const std::string& name) {
  std::string up;
  for (char c : name) up += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (up == "NPY") return TensorFileFormat::kNpy;
  if (up == "BIN") return TensorFileFormat::kBin;
  if (up == "TXT") return TensorFileFormat::kTxt;
  return InvalidArgument("'" + name + "' is not an output format (NPY, BIN or TXT)");
}

const char* TensorFileExtension(TensorFileFormat format) {
  switch (format) {
    case TensorFileFormat::kNpy: return "npy";
    case TensorFileFormat::kBin: return "bin";
    case TensorFileFormat::kTxt: return "txt";
  }
  return "bin";
}

bool FileDtypeFits(DataType file, DataType want) {
  return file == want || (file == DataType::kUInt16 && want == DataType::kBFloat16);
}

Result<std::vector<uint8_t>> ReadTensorFile(const std::string& path, const TensorDesc& desc) {
  if (!EndsWithNpy(path)) return ReadRaw(path, desc);
  auto arr = ReadNpy(path);
  if (!arr.ok()) return arr.status();
  if (!FileDtypeFits(arr->desc.dtype, desc.dtype) || arr->desc.dims != desc.dims)
    return InvalidArgument(path + " is " + arr->desc.ToString() + ", expected " + desc.ToString());
  return std::move(arr->bytes);
}

std::string TensorToText(const TensorDesc& desc, const void* data) {
  const int64_t bytes = desc.Bytes();
  if (bytes <= 0) return "\n";
  const std::vector<double> v = Tensor(desc, data, static_cast<size_t>(bytes)).ToDouble();
  const int64_t row = desc.dims.empty() || desc.dims.back() <= 0 ? static_cast<int64_t>(v.size()) : desc.dims.back();
  const char* fmt = !IsFloatingPoint(desc.dtype) ? "%.0f" : desc.dtype == DataType::kFloat64 ? "%.17g" : "%.9g";
  std::string out;
  char buf[40];
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, fmt, v[i]);
    out += buf;
    out += (static_cast<int64_t>(i + 1) % row == 0) ? '\n' : ' ';
  }
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

Status WriteTensorFile(const std::string& path, TensorFileFormat format, const TensorDesc& desc, const void* data) {
  switch (format) {
    case TensorFileFormat::kNpy: return WriteNpy(path, desc, data);
    case TensorFileFormat::kTxt: return WriteFileAtomically(path, TensorToText(desc, data));
    case TensorFileFormat::kBin: break;
  }
  const int64_t bytes = desc.Bytes();
  if (bytes < 0) return InvalidArgument(path + ": the tensor " + desc.ToString() + " has no static size");
  return WriteFileAtomically(path, std::string(static_cast<const char*>(data), static_cast<size_t>(bytes)));
}

}  // namespace ge::tools
