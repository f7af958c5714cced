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
//
// A gear model (ATC's --dynamic_batch_size, --dynamic_image_size,
// --dynamic_dims) is a dynamic model whose root graph is Data -> GearCase ->
// NetOutput: each gear is subgraph "gear<i>" of the GearCase node, a whole
// static model for one set of input dims, with its plan here.
//
// A static model with control flow (If, Loop whose subgraphs are all
// static) has a plan here for every subgraph of those nodes: `node` is the
// node's path from the root graph ("loop1", or "if1/then_branch/loop2" for
// one nested in a branch), and the loader links the plans into one task
// list with label tasks (ge/plan/link.h, docs/control-flow.md).
struct SubgraphPlan {
  std::string node;
  std::string subgraph = "f";  // the node's subgraph this plans
  std::vector<IoDesc> inputs;
  std::vector<IoDesc> outputs;
  MemoryPlan memory;
  std::vector<StreamTasks> streams;
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
  // The weights as a loaded .om holds them (its weights section, mapped):
  // the writer lays the plan's weights segment out there, byte for byte, so
  // a runtime on a device that shares host memory uses it in place instead
  // of copying every constant. Empty for a model built in memory.
  struct WeightsImage {
    std::shared_ptr<const void> owner;
    const uint8_t* data = nullptr;
    uint64_t size = 0;
  };
  WeightsImage weights_image;
};

// A model's identity (name, producer, framework, source hash, target,
// options) without its graph, IO or plan.
Model CopyModelInfo(const Model& m);

// Fills inputs/outputs from the graph's Data nodes and NetOutput (attr
// "output_names" names the outputs; else the producer's name).
void DescribeModelIo(Model& model);
void DescribeGraphIo(const Graph& graph, std::vector<IoDesc>& inputs, std::vector<IoDesc>& outputs);

// The node at `path` of `graph`: a node name, or "owner/subgraph/name" for
// a node inside a subgraph, as deep as needed. nullptr when there is none.
const Node* FindNodeByPath(const Graph& graph, const std::string& path);
// A control-flow node a static model runs in sink mode, its subgraphs
// planned and linked: If and Loop.
bool IsLinkedControlFlow(const Node& n);
// The subgraphs of `n` that a linked model plans, in link order.
std::vector<std::string> LinkedSubgraphs(const Node& n);

// Partition `i` of a dynamic model as a static Model of its own (the
// subgraph is copied; constant bytes are shared): what the runtimes load
// for a PartitionedCall node or one gear of a GearCase node. In a static
// model, a control-flow subgraph's plan, with the plans nested in it. An
// error names what is missing.
Result<Model> PartitionModel(const Model& root, size_t i);

// The partitions of `root` that are gears of its GearCase node `node`, in
// gear order (empty when `node` is not a GearCase).
std::vector<size_t> GearPartitions(const Model& root, const std::string& node);
// The GearCase node of a gear model's root graph, or nullptr.
const Node* FindGearCase(const Model& model);

}  // namespace ge
