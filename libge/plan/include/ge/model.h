// A compiled model: the optimised graph plus what the runtimes and tools need
// to know about it. ge-atc produces one, the .om format stores one, the
// runtimes load one.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/ir/graph.h"
#include "ge/plan.h"

namespace ge {

struct IoDesc {
  std::string name;
  TensorDesc desc;
};

// The plan of one known-shape cluster of a dynamic model: the subgraph "f"
// of the root graph's PartitionedCall node `node`, planned like a static
// model (docs/dynamic-shapes.md).
struct SubgraphPlan {
  std::string node;
  std::vector<IoDesc> inputs;
  std::vector<IoDesc> outputs;
  MemoryPlan memory;
  std::vector<StreamTasks> streams;
  // A dynamic model (unknown shapes left after compilation) has no plan of
  // its own: its graph is the root graph, run by the v2 runtime node by node,
  // and each of its PartitionedCall nodes has a plan here.
  bool dynamic = false;
  std::vector<SubgraphPlan> partitions;
};

struct Model {
  std::string name;
  std::string producer;       // "ge-atc 0.1.0"
  std::string framework;      // "onnx" | "tensorflow"
  std::string source_sha256;  // of the source model file
  // The HAL device it was compiled for (hal::GetDevice name, e.g. "cpu");
  // runtimes run it there unless told otherwise. Empty: the default device.
  std::string target;
  std::vector<IoDesc> inputs;
  std::vector<IoDesc> outputs;
  std::vector<std::pair<std::string, std::string>> options;  // compile flags, sorted by key
  std::unique_ptr<Graph> graph;
  // Filled by the compiler's planning stages (empty in a model that was
  // never planned).
  MemoryPlan memory;
  std::vector<StreamTasks> streams;
  // A dynamic model (unknown shapes left after compilation) has no plan of
  // its own: its graph is the root graph, run by the v2 runtime node by node,
  // and each of its PartitionedCall nodes has a plan here.
  bool dynamic = false;
  std::vector<SubgraphPlan> partitions;
};

// Fills inputs/outputs from the graph's Data nodes and NetOutput (attr
// "output_names" names the outputs; else the producer's name).
void DescribeModelIo(Model& model);
void DescribeGraphIo(const Graph& graph, std::vector<IoDesc>& inputs, std::vector<IoDesc>& outputs);

// Partition `i` of a dynamic model as a static Model of its own (the
// subgraph is copied; constant bytes are shared): what the runtimes load
// for a PartitionedCall node. An error names what is missing.
Result<Model> PartitionModel(const Model& root, size_t i);

}  // namespace ge
