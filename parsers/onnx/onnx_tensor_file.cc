#include "ge_parsers/onnx_tensor_file.h"

#include <climits>

#include "ge_base/mapped_file.h"
#include "onnx_tensor.h"

namespace ge {

bool IsOnnxTensorFile(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0;
}

Result<Tensor> ReadOnnxTensorFile(const std::string& path) {
  GE_ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path, MappedFile::Paging::kPopulate));
  if (file->size() > static_cast<size_t>(INT_MAX))
    return Unsupported(path + ": " + std::to_string(file->size()) + " bytes, larger than a TensorProto can be (2 GiB)");
  onnx::TensorProto t;
  if (!t.ParseFromArray(file->chars(), static_cast<int>(file->size())))
    return Corrupt(path + ": not an ONNX TensorProto file");
  // An empty file, or one of another message type, parses with no data_type.
  if (!t.has_data_type()) return Corrupt(path + ": not an ONNX TensorProto file (no data_type)");
  return onnx_parser::TensorFromOnnx(t, path);
}

}  // namespace ge
