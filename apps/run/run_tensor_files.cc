#include "run/run_tensor_files.h"

#include "ge/tools/tensor_file.h"
#include "ge_parsers/onnx_tensor_file.h"

namespace ge::run {

Result<std::vector<uint8_t>> ReadInputFile(const std::string& path, const TensorDesc& desc) {
  if (!IsOnnxTensorFile(path)) return tools::ReadTensorFile(path, desc);
  GE_ASSIGN_OR_RETURN(Tensor t, ReadOnnxTensorFile(path));
  if (!tools::FileDtypeFits(t.desc().dtype, desc.dtype) || t.desc().dims != desc.dims)
    return InvalidArgument(path + " is " + t.desc().ToString() + ", expected " + desc.ToString());
  return std::vector<uint8_t>(t.data(), t.data() + t.size());
}

Result<NpyArray> ReadShapedInputFile(const std::string& path, const TensorDesc& desc, const std::vector<int64_t>& dims) {
  NpyArray a;
  const bool typed = IsOnnxTensorFile(path) || (path.size() >= 4 && path.substr(path.size() - 4) == ".npy");
  if (typed) {
    GE_ASSIGN_OR_RETURN(a, ReadGoldenFile(path));
  } else {
    TensorDesc d(desc.dtype, dims.empty() ? desc.dims : dims);
    if (!d.is_static())
      return InvalidArgument(path + ": a raw file has no shape and the input is " + desc.ToString() +
                             ": give its dims with --dymShape, or use .npy");
    GE_ASSIGN_OR_RETURN(a.bytes, tools::ReadTensorFile(path, d));
    a.desc = d;
  }
  if (!tools::FileDtypeFits(a.desc.dtype, desc.dtype) || !desc.Admits(a.desc.dims) ||
      (!dims.empty() && a.desc.dims != dims))
    return InvalidArgument(path + " is " + a.desc.ToString() + ", expected " +
                           (dims.empty() ? desc.ToString() : TensorDesc(desc.dtype, dims).ToString()));
  a.desc.dtype = desc.dtype;  // u16 bits of a bf16 input are bf16 from here on
  return a;
}

Result<NpyArray> ReadGoldenFile(const std::string& path) {
  if (!IsOnnxTensorFile(path)) return ReadNpy(path);
  GE_ASSIGN_OR_RETURN(Tensor t, ReadOnnxTensorFile(path));
  return NpyArray{t.desc(), std::vector<uint8_t>(t.data(), t.data() + t.size())};
}

}  // namespace ge::run
