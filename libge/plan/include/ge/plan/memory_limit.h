// One memory limit for the compiler and the loader: a model whose tensors
// or segments cannot fit is refused by ge-atc (--max_memory, default the
// machine's memory) and again at load (ge-run --max_memory, default the
// machine's memory), with the tensor or segment named, before anything is
// allocated. Nothing that ge-atc writes is refused by a loader on a machine
// of the same size.
#pragma once

#include <cstdint>
#include <string>

#include "ge/model.h"

namespace ge {

// The ceiling of every limit, and of a segment in the .om format: 1 TiB.
constexpr int64_t kMaxMemoryLimit = int64_t{1} << 40;

// Physical memory of this machine (sysconf), at most kMaxMemoryLimit;
// kMaxMemoryLimit when the system does not say.
int64_t MachineMemoryBytes();

// `limit` when in 1..kMaxMemoryLimit, else MachineMemoryBytes() (0 in the
// options means "this machine").
int64_t EffectiveMemoryLimit(int64_t limit);

// "512 B", "3.0 KiB", "64.0 GiB".
std::string HumanBytes(int64_t bytes);

// One tensor, `what` naming it ("tensor conv1:0"): too large to compute its
// size, or more bytes than `limit`. Tensors that are not static pass.
Status CheckTensorSize(const TensorDesc& desc, const std::string& what, int64_t limit);

// Every segment of the plan and their total against `limit`.
Status CheckMemoryLimit(const MemoryPlan& plan, int64_t limit);

// The model's IO descriptions, every node output of its graph, then its
// plan (when planned): the first that does not fit is the error.
Status CheckMemoryLimit(const Model& model, int64_t limit);

}  // namespace ge
