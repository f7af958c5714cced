// ONNX tensors and types → ge: TypeProto → TensorDesc,
// TensorProto → ge::Tensor (initializers, Constant values, TENSOR attributes).
#pragma once

#include <string>

#include "ge/ir/tensor.h"
#include "ge/ir/tensor_desc.h"
#include "ge_base/onnx_dtype.h"  // DataTypeFromOnnx
#include "ge_base/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

// "FLOAT", "STRING", ... for messages.
std::string OnnxElemTypeName(int32_t onnx_elem_type);

// A value's description: dtype + dims, symbolic or missing dims → -1, no shape
// at all → {-2}. Non-tensor types (sequence, map, optional) give undef[*].
TensorDesc TensorDescFromType(const onnx::TypeProto& type);

bool HasExternalData(const onnx::TensorProto& t);

// The checks of TensorFromOnnx without copying any data, so a whole model can
// be vetted (with errors naming the tensor) before the onnx checker runs.
Status CheckTensorData(const onnx::TensorProto& t, const std::string& what);

// Decodes raw_data or the typed field (float_data, int32_data, int64_data,
// double_data, uint64_data). `what` names the tensor in errors, e.g.
// "initializer 'conv1.weight'". Length mismatches are Corrupt; external data,
// segments and dtypes ge cannot hold are Unsupported.
Result<Tensor> TensorFromOnnx(const onnx::TensorProto& t, const std::string& what);

}  // namespace ge::onnx_parser
