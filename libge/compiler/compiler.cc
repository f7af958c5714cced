#include "ge/compiler.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "gears/gear_compiler.h"
#include "memory/memory_planner.h"
#include "partition/dynamic_shape_partitioner.h"
#include "partition/static_control_flow.h"
#include "pass.h"
#include "streams/streams.h"
#include "tasks/task_builder.h"
#include "ge/plan/verify.h"
#include "ge/plan/memory_limit.h"
#include "hal/device.h"

namespace ge {

std::vector<PassInfo> ListPasses() {
  std::vector<PassInfo> out;
  const PassManager pm = BuildPipeline();  // kept alive: passes() is a reference into it
  for (const Pass& p : pm.passes()) out.push_back({p.name, p.stage, p.required, p.fusion});
  return out;
}

std::vector<std::string> PassNames() {
  std::vector<std::string> names;
  for (const PassInfo& p : ListPasses()) names.push_back(p.name);
  return names;
}

namespace {

// Planning stages (6, 7, 8) of one static graph: they describe the final
// graph, they do not rewrite it, so they run after every pass. Streams
// first: the memory plan's lifetimes are over the stream-aware schedule, and
// the tasks are the schedule with the plan's addresses.
// self_check off: a control-flow subgraph, whose plan the model that holds
// it verifies (VerifyModel checks every subgraph plan, nested ones once).
Status PlanModel(Model& m, const CompileOptions& options, bool self_check = true);

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
      GE_RETURN_IF_ERROR(PlanModel(sub, options, false).Annotated("node " + n->Label() + ", subgraph '" + name + "'"));
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

Status PlanModel(Model& m, const CompileOptions& options, bool self_check) {
  // Label tasks jump within one stream, and a stream that jumps has no events.
  const bool control_flow = partition::HasControlFlow(*m.graph);
  if (control_flow) GE_RETURN_IF_ERROR(PlanSubgraphs(m, options));
  const int32_t stream_num = control_flow ? 1 : options.stream_num;
  if (control_flow && options.stream_num > 1)
    spdlog::info("streams: {} has control flow in its plan, so it runs on one stream (label tasks jump within a stream)", m.name);
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, memory::ExecutionOrder(*m.graph));
  GE_ASSIGN_OR_RETURN(std::vector<StreamTasks> schedule, streams::BuildSchedule(order, stream_num));
  GE_RETURN_IF_ERROR(CheckEventGraph(schedule));
  const streams::ScheduleStats stats = streams::Stats(schedule);
  spdlog::info("streams: {} kernels on {} stream(s), {} event(s) (stream_num {})", stats.kernels, stats.streams,
               stats.events, stream_num);
  memory::PlanOptions plan_options;
  plan_options.alignment = options.memory_alignment;
  plan_options.reuse = options.buffer_reuse;
  plan_options.inplace = options.buffer_reuse;  // in-place is reuse too
  plan_options.schedule = &schedule;
  // What a loader would refuse is not written: every tensor and IO before
  // planning (so the planner's sums stay small), the segments after.
  const int64_t limit = EffectiveMemoryLimit(options.max_memory);
  GE_RETURN_IF_ERROR(CheckMemoryLimit(m, limit));
  GE_ASSIGN_OR_RETURN(m.memory, memory::PlanMemory(*m.graph, plan_options));
  GE_RETURN_IF_ERROR(CheckMemoryLimit(m.memory, limit));
  GE_ASSIGN_OR_RETURN(m.streams, tasks::BuildTasks(*m.graph, m.memory, std::move(schedule)));
  spdlog::debug("memory ({}): {}", m.name, MemoryReport(m.memory));
  // Self-check: what the runtimes will verify at load must hold now; a
  // failure here is a compiler bug, reported instead of written to a .om.
  if (!self_check) return Status::Ok();
  if (Status s = VerifyModel(m); !s.ok()) return Internal("compiled model fails its own check: " + s.message());
  return Status::Ok();
}

}  // namespace

Result<Model> Compile(std::unique_ptr<Graph> graph, const CompileOptions& options) {
  if (!graph) return Internal("Compile: no graph");
  if (options.gears.kind != GearOptions::Kind::kNone) return gears::CompileGears(std::move(graph), options);
  PassContext ctx;
  GE_ASSIGN_OR_RETURN(ctx.device, hal::GetDevice(options.device));
  GE_ASSIGN_OR_RETURN(ctx.host, hal::GetHostDevice());
  const int max_streams = ctx.device->capabilities().max_streams;
  if (options.stream_num < 1 || options.stream_num > max_streams)
    return InvalidArgument("stream_num " + std::to_string(options.stream_num) + " is outside 1.." +
                           std::to_string(max_streams) + " (the " + ctx.device->capabilities().name + " backend's streams)");
  ctx.options = &options;
  PassManager pm = BuildPipeline();
  for (const ExtraPass& e : options.extra_passes) {
    auto run = e.run;
    GE_RETURN_IF_ERROR(pm.InsertAfter(e.after, OptionalPass(e.name, "extra", [run](Graph& g, const PassContext&) {
      return run(g);
    })));
  }
  GE_RETURN_IF_ERROR(pm.Disable(options.disabled_passes));
  pm.set_verify_each_pass(options.verify_each_pass);
  if (options.after_pass) {
    options.after_pass("parsed", *graph);
    pm.set_after_pass(options.after_pass);
  }
  GE_RETURN_IF_ERROR(pm.Run(*graph, ctx));

  Model m;
  m.name = options.model_name.empty() ? graph->name() : options.model_name;
  m.producer = "ge-atc 0.1.0";
  m.framework = options.framework;
  m.source_sha256 = options.source_sha256;
  m.target = options.device.empty() ? hal::DeviceNames().front() : options.device;
  m.options = options.recorded_options;
  m.graph = std::move(graph);
  DescribeModelIo(m);

  // A partitioned graph keeps its unknown-shape nodes in the root, so it is
  // never static.
  if (partition::IsStaticGraph(*m.graph, StaticControlFlowTest(ctx))) {
    GE_RETURN_IF_ERROR(PlanModel(m, options));
    if (!m.partitions.empty())
      spdlog::info("control flow: {} subgraph plan(s) in the static plan, linked into label tasks at load", m.partitions.size());
    return m;
  }
  // A dynamic model: the root graph runs node by node in v2; each known-shape
  // cluster (PartitionedCall) is planned like a static model.
  m.dynamic = true;
  GE_ASSIGN_OR_RETURN(std::vector<Node*> root_order, m.graph->TopologicalOrder());
  for (Node* n : root_order) {
    if (n->type() != op::kPartitionedCall) continue;
    SubgraphPlan plan;
    plan.node = n->name();
    m.partitions.push_back(std::move(plan));
    GE_ASSIGN_OR_RETURN(Model sub, PartitionModel(m, m.partitions.size() - 1));
    DescribeModelIo(sub);
    GE_RETURN_IF_ERROR(PlanModel(sub, options));
    SubgraphPlan& p = m.partitions.back();
    p.inputs = sub.inputs;
    p.outputs = sub.outputs;
    p.memory = std::move(sub.memory);
    p.streams = std::move(sub.streams);
  }
  spdlog::info("dynamic model: {} known-shape partition(s), {} dynamic input(s)", m.partitions.size(),
               std::count_if(m.inputs.begin(), m.inputs.end(), [](const IoDesc& d) { return !d.desc.is_static(); }));
  return m;
}

}  // namespace ge
