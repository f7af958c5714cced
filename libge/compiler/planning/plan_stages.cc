#include "planning/plan_stages.h"

#include <spdlog/spdlog.h>

#include "ge/plan/memory_limit.h"
#include "ge/plan/verify.h"
#include "memory/memory_planner.h"
#include "partition/dynamic_shape_partitioner.h"
#include "partition/static_control_flow.h"
#include "streams/streams.h"
#include "tasks/task_builder.h"

namespace ge {
namespace {

// A planning stage: a required pass over the PlanState in the context.
Pass PlanStage(std::string name, std::string stage, std::function<Status(PlanState&)> run) {
  return Pass{std::move(name), std::move(stage), [run](Graph&, const PassContext& ctx) -> Status {
                if (!ctx.plan) return Internal("a planning stage ran without a plan");
                return run(*ctx.plan);
              }};
}

// Streams first: the memory plan's lifetimes are over the stream-aware
// schedule, and the tasks are the schedule with the plan's addresses.
Status AssignStreams(PlanState& s) {
  GE_ASSIGN_OR_RETURN(s.order, memory::ExecutionOrder(*s.model->graph));
  GE_ASSIGN_OR_RETURN(s.schedule, streams::BuildSchedule(s.order, s.stream_num));
  GE_RETURN_IF_ERROR(CheckEventGraph(s.schedule));
  const streams::ScheduleStats stats = streams::Stats(s.schedule);
  s.report = std::to_string(stats.kernels) + " kernels on " + std::to_string(stats.streams) + " stream(s), " +
             std::to_string(stats.events) + " event(s) (stream_num " + std::to_string(s.stream_num) + ")";
  spdlog::info("streams: {}: {}", s.model->name, s.report);
  return Status::Ok();
}

Status PlanMemoryStage(PlanState& s) {
  memory::PlanOptions plan_options;
  plan_options.alignment = s.options->memory_alignment;
  plan_options.reuse = s.options->buffer_reuse;
  plan_options.inplace = s.options->buffer_reuse;  // in-place is reuse too
  plan_options.schedule = &s.schedule;
  // What a loader would refuse is not written: every tensor and IO before
  // planning (so the planner's sums stay small), the segments after.
  const int64_t limit = EffectiveMemoryLimit(s.options->max_memory);
  GE_RETURN_IF_ERROR(CheckMemoryLimit(*s.model, limit));
  GE_ASSIGN_OR_RETURN(s.model->memory, memory::PlanMemory(*s.model->graph, plan_options));
  GE_RETURN_IF_ERROR(CheckMemoryLimit(s.model->memory, limit));
  s.report = MemoryReport(s.model->memory);
  spdlog::debug("memory ({}): {}", s.model->name, s.report);
  return Status::Ok();
}

Status BuildTaskLists(PlanState& s) {
  GE_ASSIGN_OR_RETURN(s.model->streams, tasks::BuildTasks(*s.model->graph, s.model->memory, std::move(s.schedule)));
  size_t tasks = 0;
  for (const StreamTasks& st : s.model->streams) tasks += st.tasks.size();
  s.report = std::to_string(tasks) + " tasks on " + std::to_string(s.model->streams.size()) + " stream(s)";
  return Status::Ok();
}

// What the runtimes will verify at load must hold now; a failure here is a
// compiler bug, reported instead of written to a .om.
Status CheckModel(PlanState& s) {
  if (!s.self_check) {
    s.report = "checked with the model that holds this subgraph";
    return Status::Ok();
  }
  if (Status v = VerifyModel(*s.model); !v.ok()) return Internal("compiled model fails its own check: " + v.message());
  s.report = "the load-time model check passes";
  return Status::Ok();
}

// Control flow in a static plan: each subgraph of its If / Loop nodes is
// planned as a static model of its own (innermost first, by recursion), and
// its plan kept in m.partitions under the node's path; the loader links
// them (ge/plan/link.h).
Status PlanSubgraphs(Model& m, const CompileOptions& options) {
  for (const Node* n : m.graph->nodes()) {
    if (!IsLinkedControlFlow(*n)) continue;
    for (const std::string& name : LinkedSubgraphs(*n)) {
      auto it = n->subgraphs().find(name);
      if (it == n->subgraphs().end() || !it->second) return Internal("node " + n->Label() + " has no subgraph " + name);
      Model sub;
      sub.name = m.name + "/" + n->name() + "/" + name;
      sub.graph = it->second->Clone();
      DescribeModelIo(sub);
      GE_RETURN_IF_ERROR(PlanModel(sub, options, false, false).Annotated("node " + n->Label() + ", subgraph '" + name + "'"));
      SubgraphPlan plan;
      plan.node = n->name();
      plan.subgraph = name;
      plan.inputs = sub.inputs;
      plan.outputs = sub.outputs;
      plan.memory = std::move(sub.memory);
      plan.streams = std::move(sub.streams);
      m.partitions.push_back(std::move(plan));
      for (SubgraphPlan& nested : sub.partitions) {
        nested.node = n->name() + "/" + name + "/" + nested.node;
        m.partitions.push_back(std::move(nested));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

PassManager BuildPlanPipeline() {
  PassManager pm;
  pm.Add(PlanStage("stream_assignment", "streams", AssignStreams));
  pm.Add(PlanStage("memory_planning", "plan", PlanMemoryStage));
  pm.Add(PlanStage("task_building", "tasks", BuildTaskLists));
  pm.Add(PlanStage("model_check", "tasks", CheckModel));
  return pm;
}

Status PlanModel(Model& m, const CompileOptions& options, bool self_check, bool instrument) {
  // Label tasks jump within one stream, and a stream that jumps has no events.
  const bool control_flow = partition::HasControlFlow(*m.graph);
  if (control_flow) GE_RETURN_IF_ERROR(PlanSubgraphs(m, options));
  PlanState state;
  state.model = &m;
  state.options = &options;
  state.stream_num = control_flow ? 1 : options.stream_num;
  state.self_check = self_check;
  if (control_flow && options.stream_num > 1)
    spdlog::info("streams: {} has control flow in its plan, so it runs on one stream (label tasks jump within a stream)", m.name);
  PassManager pm = BuildPlanPipeline();
  if (instrument && options.after_plan_stage)
    pm.set_after_pass([&](const std::string& stage, const Graph&) { options.after_plan_stage(stage, state.report); });
  PassContext ctx;
  ctx.options = &options;
  ctx.plan = &state;
  return pm.Run(*m.graph, ctx);
}

}  // namespace ge
