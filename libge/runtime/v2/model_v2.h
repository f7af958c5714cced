// Runtime v2's entry points, for LoadModel (load_model.cc) and the op dump
// (op_dump.cc); private to ge_runtime.
#pragma once

#include <memory>

#include "common/program.h"
#include "ge/runtime.h"

namespace ge::v2 {

// A static or dynamic model, as LoadModel loads it in v2 mode.
Result<std::unique_ptr<LoadedModel>> LoadV2(const Model& model, const LoadOptions& options);

// A static model whose program is built already (the op dump wraps its kernels).
Result<std::unique_ptr<LoadedModel>> LoadV2(std::shared_ptr<const rt::Program> program, const LoadOptions& options);

class RunLimits;

// A dynamic model: lowered node by node (model_v2_executor.cc). Its calls
// start the deadline of `options.timeout` and charge a memory budget of
// their own.
Result<std::unique_ptr<LoadedModel>> LoadDynamicV2(const Model& model, const LoadOptions& options);
// A subgraph model of control flow: runs inside a call of the model that
// owns `limits` (which outlives it), against its deadline, iteration limit
// and memory budget.
Result<std::unique_ptr<LoadedModel>> LoadDynamicV2(const Model& model, const LoadOptions& options,
                                                   RunLimits* limits);

}  // namespace ge::v2
