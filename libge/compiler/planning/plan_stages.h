// The planning stages of Compile() (DESIGN.md "Compiler", stages 6-8) as
// named passes of a pass manager of their own: stream_assignment,
// memory_planning, task_building, model_check. They describe the final
// graph, they never rewrite it, so they work on a PlanState the pass
// context carries; ge-dump shows each (CompileOptions::after_plan_stage)
// and --list_passes lists them (required: a model needs every one).
#pragma once

#include <string>
#include <vector>

#include "ge/model.h"
#include "pass.h"

namespace ge {

// What the planning stages work on and hand each other.
struct PlanState {
  Model* model = nullptr;
  const CompileOptions* options = nullptr;
  std::vector<Node*> order;             // stream_assignment: the execution order
  std::vector<StreamTasks> schedule;    // stream_assignment -> task_building
  int32_t stream_num = 1;
  bool self_check = true;  // model_check: off for a control-flow subgraph (its model checks it)
  std::string report;      // what the last stage decided, one paragraph (ge-dump)
};

PassManager BuildPlanPipeline();

// Plans one static graph: its control-flow subgraphs first (each a model of
// its own, kept in m.partitions), then the planning stages. `instrument`:
// report each stage to options.after_plan_stage (the root model only, so
// ge-dump shows one plan).
Status PlanModel(Model& m, const CompileOptions& options, bool self_check, bool instrument);

}  // namespace ge
