// One tensor in an ONNX TensorProto file (.pb): the form of the ONNX backend
// test suite's inputs and expected outputs (test_data_set_K/input_K.pb), which
// ge-run's --input and --compare read next to .npy and .bin.
#pragma once

#include <string>

#include "ge/ir/tensor.h"
#include "ge_base/status.h"

namespace ge {

// True when path names a TensorProto file (extension .pb).
bool IsOnnxTensorFile(const std::string& path);

// The tensor in `path`. Errors name the file: not a TensorProto, a dtype ge
// cannot hold, data that does not match the dims, external data.
Result<Tensor> ReadOnnxTensorFile(const std::string& path);

}  // namespace ge
