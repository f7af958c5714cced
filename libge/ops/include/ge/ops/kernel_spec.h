// How a node becomes a hal::KernelSpec: the compiler uses it to ask the
// backend what it supports (and to evaluate small constant subgraphs), the
// runtimes to create the kernels.
#pragma once

#include <string>

#include "ge/ir/graph.h"
#include "hal/kernel.h"

namespace ge {

// Node attributes become kernel attributes (bool → int, float → double,
// single-element tensor → double, string list → one comma-separated string;
// subgraphs and larger tensors are dropped);
// descs become TensorInfos (absent optional inputs: kUndefined). const_inputs
// is left empty for the caller to fill. packed_inputs point at the node's
// packed-weight attributes (below), which must outlive the spec's use.
hal::KernelSpec BuildKernelSpec(const Node& node);

// The weight_prepack pass stores a constant input packed ahead of time as
// node attributes: tensor "_packed<i>" (u8 bytes) and string
// "_packed<i>_format" (hal::PackedInput).
inline constexpr const char* kPackedAttrPrefix = "_packed";
std::string PackedInputAttr(size_t input);

// Nodes that run no kernel of their own: graph inputs/outputs, constants and
// PartitionedCall (its subgraph runs as a model).
bool IsStructuralNode(const Node& node);

}  // namespace ge
