// TensorFlow dtypes, shapes and TensorProtos → ge: the DataType mapping,
// TensorShapeProto → dims, TensorProto → ge::Tensor (Const values).
#pragma once

#include <string>
#include <vector>

#include "ge/ir/tensor.h"
#include "ge_base/status.h"
#include "tf_graph.pb.h"

namespace ge::tf_parser {

// kUndefined for TF types ge cannot hold (string, complex, quantized,
// resource, variant, reference types).
DataType DataTypeFromTf(int tf_dtype);
// "DT_FLOAT", "DT_STRING", ... for messages.
std::string TfDataTypeName(int tf_dtype);

// unknown_rank → {-2}; a dim of -1 → -1. Other negative sizes are Corrupt.
Result<std::vector<int64_t>> DimsFromTfShape(const tf::TensorShapeProto& shape, const std::string& what);

// Decodes tensor_content (raw little-endian bytes) or the typed *_val field
// of the dtype. TF's fill rule applies to the typed fields: with fewer values
// than elements the last one repeats to fill the shape (one value fills it
// all), with none the tensor is zeros. `what` names the tensor in errors.
Result<Tensor> TensorFromTf(const tf::TensorProto& proto, const std::string& what);

}  // namespace ge::tf_parser
