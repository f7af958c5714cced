// Linking a static model with control flow into one task list.
//
// A static model stores each If / Loop node whose subgraphs are all static
// as one kernel task of its graph, and each subgraph's own plan (memory and
// tasks) in Model::partitions. Loading links them, as a linker relocates
// object files: every subgraph task is copied inline with its addresses
// moved into the model's segments, and the control flow becomes GE's label
// tasks (LabelSet / LabelGoto / LabelSwitch) around small control kernels,
// so the HAL model still runs a whole inference, loops included, in one
// call (docs/control-flow.md has the task lists of an If and a Loop).
//
// Memory of a control-flow node while it runs (its workspace, after the
// graph's own feature map; every node of one graph shares one region, since
// one runs at a time):
//   [ctrl 64 B: iteration i64 | cond bool | switch index i32]
//   [Loop: the body's output segment, where each iteration's results land]
//   [the subgraph's feature map, itself linked: nested workspaces inside]
// A branch reads the node's inputs where they are and writes its outputs
// into the node's output buffers; a loop body reads the carried values from
// the Loop's output buffers, and its results are copied there after every
// iteration, once the body no longer reads them (the reference's rule for
// a body whose inputs and outputs alias across iterations).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ge/model.h"

namespace ge {

struct LinkedPlan {
  MemoryPlan memory;  // the model's, with the subgraphs' weights and workspaces added
  std::vector<StreamTasks> streams;
  int32_t num_labels = 0;
  // Every node a kernel task or a weights buffer names; subgraph nodes by
  // path ("loop1/body/fc1"). Pointers into the model's graph.
  std::map<std::string, const Node*> nodes;
};

// The model's plan with its control flow linked; a model without control
// flow comes back as it is. An error names the node whose plans do not fit
// (a missing subgraph plan, a subgraph with events, IO that differs from the
// node's).
Result<LinkedPlan> LinkModel(const Model& model);

// True when the model has control-flow subgraph plans to link.
bool HasLinkedControlFlow(const Model& model);

}  // namespace ge
