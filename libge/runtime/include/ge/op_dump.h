// Op dump: every kernel task's outputs of one inference, for comparing two
// compilations or two runtimes layer by layer (ge-run --dump, ge-dump
// compare; docs/ge-dump.md).
//
// The dump is a separate debug load: the model is loaded with every kernel
// wrapped so that each output is copied right after its kernel ran (memory
// reuse overwrites it later). A normal load has no wrapper and pays nothing.
// Channel-blocked outputs (NCHW8c, nhwc) are converted back to plain NCHW
// with the device's TransData kernel, so dumps of differently laid out
// compilations compare element by element.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/ir/tensor_desc.h"
#include "ge/model.h"
#include "ge/runtime.h"

namespace ge {

// One output of one op, as it was right after the op's kernel ran.
struct OpOutput {
  std::string node;                 // the node's name (a fused node keeps its own)
  std::string type;                 // its op type
  int32_t output = 0;               // output index
  std::vector<std::string> inputs;  // the nodes its data inputs come from
  TensorDesc desc;                  // plain row-major (NCHW), whatever the kernel's layout
  std::vector<uint8_t> bytes;       // desc.Bytes() bytes
};

struct OpDumpOptions {
  RunMode mode = RunMode::kV2;
  std::string device;      // as LoadOptions::device
  int64_t max_memory = 0;  // as LoadOptions::max_memory
  // Test only (ge-run's hidden --test_perturb_op): adds perturb_value to
  // every element of this node's float outputs right after its kernel runs,
  // so tests can check that a comparison finds the op. Empty: none; a name
  // with no kernel task is an InvalidArgument.
  std::string perturb_op;
  float perturb_value = 1e-2f;
};

// Loads `model` for dumping, runs one inference on `inputs` (one buffer per
// model input, inputs()[i].desc.Bytes() bytes each) and returns every kernel
// task's outputs in execution order (the plan's order, which both runtimes
// respect).
Result<std::vector<OpOutput>> RunWithOpDump(const Model& model, const OpDumpOptions& options,
                                            const std::vector<const void*>& inputs);

}  // namespace ge
