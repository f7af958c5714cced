#include "ge/compiler.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "gears/gear_compiler.h"
#include "partition/dynamic_shape_partitioner.h"
#include "partition/static_control_flow.h"
#include "pass.h"
#include "planning/plan_stages.h"
#include "hal/device.h"

namespace ge {

std::vector<PassInfo> ListPasses() {
  std::vector<PassInfo> out;
  const PassManager pm = BuildPipeline();  // kept alive: passes() is a reference into it
  for (const Pass& p : pm.passes()) out.push_back({p.name, p.stage, p.required, p.fusion});
  const PassManager plan = BuildPlanPipeline();
  for (const Pass& p : plan.passes()) out.push_back({p.name, p.stage, p.required, p.fusion, true});
  return out;
}

std::vector<std::string> PassNames() {
  std::vector<std::string> names;
  for (const PassInfo& p : ListPasses())
    if (!p.planning) names.push_back(p.name);
  return names;
}

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
  const PassManager plan_stages = BuildPlanPipeline();
  for (const ExtraPass& e : options.extra_passes) {
    for (const Pass& p : plan_stages.passes())
      if (p.name == e.after)
        return InvalidArgument("pass '" + e.name + "' cannot run after the planning stage '" + e.after +
                               "': the planning stages describe the final graph");
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
    GE_RETURN_IF_ERROR(PlanModel(m, options, true, true));
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
    GE_RETURN_IF_ERROR(PlanModel(sub, options, true, false));
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
