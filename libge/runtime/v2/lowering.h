// Lowering of a dynamic model (runtime-execution.txt §4.2, static-executor.txt
// §7): the root graph becomes an ExecuteGraph of value slots and C nodes.
// Each node kind has a NodeConverter (registry below) that adds what the
// node needs to Init, Main and DeInit:
//   Data             Main: the user's buffer and dims bound to its value;
//   Const            Init: the bytes copied to the device once;
//   PartitionedCall  Init: DavinciModelCreate (its plan loaded as a sink
//                    model); Main: AllocMemory for its outputs, then
//                    DavinciModelExecute (IO addresses refreshed, the whole
//                    subgraph run with one HAL call);
//   any other op     Main: InferShape, PrepareKernel (cached per shape),
//                    AllocMemory, Launch; FreeMemory after a value's last use;
//   NetOutput        Main: the outputs' values handed back.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/model.h"
#include "ge/runtime.h"
#include "hal/device.h"
#include "v2/execute_graph.h"
#include "v2/topological_executor.h"
#include "v2/value.h"

namespace ge::v2 {

class Lowering;
using NodeConverter = std::function<Status(Node& node, Lowering& l)>;

class NodeConverterRegistry {
 public:
  static const NodeConverterRegistry& Global();
  void Register(const std::string& type, NodeConverter c) { converters_[type] = std::move(c); }
  void RegisterDefault(NodeConverter c) { default_ = std::move(c); }
  // The converter of `type`: its own, else the default (a kernel op).
  const NodeConverter& Find(const std::string& type) const;

 private:
  std::map<std::string, NodeConverter> converters_;
  NodeConverter default_;
};

// What converters build into; owns every value slot and node context (their
// addresses are stable: Main holds pointers to them).
class Lowering {
 public:
  // `options`: the caller's, their device resolved to a registry name.
  Lowering(const Model& model, hal::Device& device, const LoadOptions& options, RunState& state, Graph& graph)
      : model_(model), device_(device), options_(options), state_(state), graph_(graph) {}

  const Model& model() const { return model_; }
  hal::Device& device() { return device_; }
  // What the models loaded in Init take (partitions and gears in sink mode,
  // control-flow subgraphs in v2): the caller's options in `mode`, run in
  // order (a partition's plan is made for its sequential order; a subgraph
  // runs inside one node of this model's executor).
  LoadOptions InnerModelOptions(RunMode mode) const {
    LoadOptions o = options_;
    o.mode = mode;
    o.executor = LoadOptions::Executor::kSequential;
    return o;
  }
  RunState& state() { return state_; }
  Graph& graph() { return graph_; }
  ExecuteGraph& exec() { return exec_; }

  // The slot of a node output (created on first use).
  Value* ValueOf(const Node* node, int output);
  Value* ValueOf(Endpoint e) { return ValueOf(e.node, e.index); }
  template <typename T, typename... Args>
  T* Make(Args&&... args) {
    auto p = std::make_shared<T>(std::forward<Args>(args)...);
    T* raw = p.get();
    owned_.push_back(std::move(p));
    return raw;
  }
  void AddMain(ExecFunc f, void* context) { exec_.main.push_back(ExecNode{f, context}); }
  // Device memory that Init steps hold (constants, the partitions' and
  // gears' sink models), counted by LoadedModel::device_bytes.
  void AddHeld(std::function<size_t()> bytes) { held_.push_back(std::move(bytes)); }
  size_t held_bytes() const {
    size_t n = 0;
    for (const auto& f : held_) n += f();
    return n;
  }

  // Graph IO, in the model's order.
  std::vector<Value*>& inputs() { return inputs_; }
  std::vector<Value*>& outputs() { return outputs_; }
  std::deque<Value>& values() { return value_store_; }

  // The whole root graph, converter by converter in topological order; a
  // FreeMemory node follows the last reader of each value that owns memory.
  Status Run();

  // Dependencies between Main nodes, for the topological executors: the
  // C nodes of one graph node run in order, the first after every producer's
  // last, a FreeMemory after every reader of what it frees.
  const std::vector<ExecEdge>& edges() const { return edges_; }
  // Per Main node, the graph node it runs for ("node add1 (Add)"), for
  // errors that stop between nodes (a timeout).
  const std::vector<std::string>& main_labels() const { return main_labels_; }

  // The input of `node` whose memory output `out` shares (a view op:
  // Reshape, Squeeze, Identity ...), or -1.
  static int ViewOf(const Node& node, size_t out);

 private:
  const Model& model_;
  hal::Device& device_;
  LoadOptions options_;
  RunState& state_;
  Graph& graph_;
  ExecuteGraph exec_;
  std::map<std::pair<const Node*, int>, Value*> values_;
  std::deque<Value> value_store_;
  std::vector<std::shared_ptr<void>> owned_;
  std::vector<Value*> inputs_, outputs_;
  std::vector<ExecEdge> edges_;
  std::vector<std::string> main_labels_;
  std::vector<std::function<size_t()>> held_;
};

// Registered converters (lowering_converters.cc).
void RegisterBuiltinConverters(NodeConverterRegistry& r);
// If, Loop, Scan (control_flow_converters.cc).
void RegisterControlFlowConverters(NodeConverterRegistry& r);

}  // namespace ge::v2
