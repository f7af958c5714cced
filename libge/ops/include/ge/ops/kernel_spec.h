// How a node becomes a hal::KernelSpec: the compiler uses it to ask the
// backend what it supports (and to evaluate small constant subgraphs), the
// runtimes to create the kernels.
#pragma once

#include "ge/ir/graph.h"
#include "hal/kernel.h"

namespace ge {

// Node attributes become kernel attributes (bool → int, float → double,
// single-element tensor → double, string list → one comma-separated string;
// subgraphs and larger tensors are dropped);
// descs become TensorInfos (absent optional inputs: kUndefined). const_inputs
// is left empty for the caller to fill.
hal::KernelSpec BuildKernelSpec(const Node& node);

// Nodes that run no kernel of their own: graph inputs/outputs, constants and
// PartitionedCall (its subgraph runs as a model).
bool IsStructuralNode(const Node& node);

}  // namespace ge
