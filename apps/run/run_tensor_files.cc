#include "run/run_tensor_files.h"

#include "ge/tools/tensor_file.h"
#include "ge_parsers/onnx_tensor_file.h"

namespace ge::run {

Result<std::vector<uint8_t>> ReadInputFile(const std::string& path, const TensorDesc& desc) {
  if (!IsOnnxTensorFile(path)) return tools::ReadTensorFile(path, desc);
  GE_ASSIGN_OR_RETURN(Tensor t, ReadOnnxTensorFile(path));
  if (t.desc().dtype != desc.dtype || t.desc().dims != desc.dims)
    return InvalidArgument(path + " is " + t.desc().ToString() + ", expected " + desc.ToString());
  return std::vector<uint8_t>(t.data(), t.data() + t.size());
}

Result<NpyArray> ReadGoldenFile(const std::string& path) {
  if (!IsOnnxTensorFile(path)) return ReadNpy(path);
  GE_ASSIGN_OR_RETURN(Tensor t, ReadOnnxTensorFile(path));
  return NpyArray{t.desc(), std::vector<uint8_t>(t.data(), t.data() + t.size())};
}

}  // namespace ge::run
