#include "plan_codec.h"

#include "ge/plan/memory_limit.h"

#include <algorithm>
#include <map>
#include <set>

namespace ge::om {
namespace {

void EncodeArg(const TaskArg& a, TaskArgDef* out) {
  out->set_segment(static_cast<int32_t>(a.segment));
  out->set_offset(a.offset);
}

Status Bad(const std::string& msg) { return Corrupt("memory plan: " + msg); }

Result<Segment> DecodeSegment(int32_t v, const std::string& where) {
  if (v < 0 || v > static_cast<int32_t>(Segment::kOutput)) return Bad(where + ": bad segment " + std::to_string(v));
  return static_cast<Segment>(v);
}

Status CheckRange(Segment seg, int64_t offset, int64_t size, const MemoryPlan& plan, const std::string& where) {
  if (!plan.Contains(seg, offset, size))
    return Bad(where + ": [" + std::to_string(offset) + ", +" + std::to_string(size) + ") is outside the " + SegmentName(seg) +
               " segment of " + std::to_string(plan.SegmentSize(seg)) + " bytes");
  return Status::Ok();
}

Result<TaskArg> DecodeArg(const TaskArgDef& a, const std::string& where) {
  GE_ASSIGN_OR_RETURN(Segment s, DecodeSegment(a.segment(), where));
  return TaskArg{s, a.offset()};
}

}  // namespace

void EncodePlan(const Model& model, ModelDef* def) {
  const MemoryPlan& p = model.memory;
  if (!p.empty()) {
    MemoryPlanDef* d = def->mutable_memory();
    d->set_alignment(p.alignment);
    d->set_reuse(p.reuse);
    d->set_weights_size(p.weights_size);
    d->set_feature_map_size(p.feature_map_size);
    d->set_input_size(p.input_size);
    d->set_output_size(p.output_size);
    d->set_no_reuse_size(p.no_reuse_size);
    d->set_lower_bound(p.lower_bound);
    for (const std::string& n : p.order) d->add_order(n);
    for (const BufferPlan& b : p.buffers) {
      BufferDef* bd = d->add_buffers();
      bd->set_node(b.node);
      bd->set_output(b.output);
      bd->set_symbol(b.symbol);
      bd->set_segment(static_cast<int32_t>(b.segment));
      bd->set_offset(b.offset);
      bd->set_size(b.size);
      bd->set_first_use(b.first_use);
      bd->set_last_use(b.last_use);
    }
    for (int pass = 0; pass < 2; ++pass)
      for (const IoBinding& io : pass == 0 ? p.inputs : p.outputs) {
        IoBindingDef* id = pass == 0 ? d->add_inputs() : d->add_outputs();
        id->set_offset(io.offset);
        id->set_size(io.size);
        id->set_copy(io.copy);
        EncodeArg(io.source, id->mutable_source());
      }
  }
  for (const StreamTasks& st : model.streams) {
    StreamTasksDef* sd = def->add_streams();
    sd->set_stream(st.stream);
    for (const Task& t : st.tasks) {
      TaskDef* td = sd->add_tasks();
      td->set_kind(static_cast<int32_t>(t.kind));
      td->set_node(t.node);
      td->set_kernel(t.kernel);
      td->set_event(t.event);
      for (const TaskArg& a : t.inputs) EncodeArg(a, td->add_inputs());
      for (const TaskArg& a : t.outputs) EncodeArg(a, td->add_outputs());
    }
  }
}

namespace {

using PlanNodes = std::map<std::string, Node*>;

// The header: alignment and segment sizes in range.
Status DecodePlanSizes(const MemoryPlanDef& d, MemoryPlan& p) {
  p.alignment = d.alignment();
  if (p.alignment <= 0 || p.alignment > (int64_t{1} << 20) || (p.alignment & (p.alignment - 1)) != 0)
    return Bad("alignment " + std::to_string(p.alignment) + " is not a power of two");
  p.reuse = d.reuse();
  p.weights_size = d.weights_size();
  p.feature_map_size = d.feature_map_size();
  p.input_size = d.input_size();
  p.output_size = d.output_size();
  p.no_reuse_size = d.no_reuse_size();
  p.lower_bound = d.lower_bound();
  for (int64_t s : {p.weights_size, p.feature_map_size, p.input_size, p.output_size})
    if (s < 0 || s > kMaxMemoryLimit)
      return Bad("segment size " + std::to_string(s) + " is out of range (at most " + HumanBytes(kMaxMemoryLimit) + ")");
  return Status::Ok();
}

// The order: every node of the graph exactly once.
Status DecodePlanOrder(const MemoryPlanDef& d, const PlanNodes& nodes, MemoryPlan& p) {
  std::set<std::string> seen;
  for (const std::string& n : d.order()) {
    if (!nodes.count(n)) return Bad("the execution order names unknown node " + n);
    if (!seen.insert(n).second) return Bad("the execution order names node " + n + " twice");
    p.order.push_back(n);
  }
  if (seen.size() != nodes.size()) return Bad("the execution order misses nodes");
  return Status::Ok();
}

// Buffers: one per node output, in range, aligned, consistent per symbol.
Status DecodePlanBuffers(const MemoryPlanDef& d, const PlanNodes& nodes, MemoryPlan& p) {
  struct SymbolAt {
    Segment segment;
    int64_t offset;
    int32_t first, last;
  };
  std::map<int64_t, SymbolAt> symbols;
  std::set<std::pair<std::string, int32_t>> covered;
  const int32_t steps = static_cast<int32_t>(p.order.size());
  for (const BufferDef& bd : d.buffers()) {
    const std::string where = "buffer " + bd.node() + ":" + std::to_string(bd.output());
    auto it = nodes.find(bd.node());
    if (it == nodes.end()) return Bad(where + " names an unknown node");
    if (bd.output() < 0 || static_cast<size_t>(bd.output()) >= it->second->num_outputs()) return Bad(where + ": no such output");
    if (!covered.insert({bd.node(), bd.output()}).second) return Bad(where + " is listed twice");
    BufferPlan b;
    b.node = bd.node();
    b.output = bd.output();
    b.symbol = bd.symbol();
    GE_ASSIGN_OR_RETURN(b.segment, DecodeSegment(bd.segment(), where));
    b.offset = bd.offset();
    b.size = bd.size();
    b.first_use = bd.first_use();
    b.last_use = bd.last_use();
    if (b.size != it->second->output_desc(b.output).Bytes())
      return Bad(where + ": size " + std::to_string(b.size) + " is not the tensor's " +
                 std::to_string(it->second->output_desc(b.output).Bytes()) + " bytes");
    GE_RETURN_IF_ERROR(CheckRange(b.segment, b.offset, b.size, p, where));
    if (b.offset % p.alignment != 0) return Bad(where + ": offset " + std::to_string(b.offset) + " is not aligned");
    if (b.first_use < 0 || b.first_use > b.last_use || b.last_use >= steps) return Bad(where + ": bad lifetime");
    auto [sym, fresh] = symbols.insert({b.symbol, SymbolAt{b.segment, b.offset, b.first_use, b.last_use}});
    if (!fresh && (sym->second.segment != b.segment || sym->second.offset != b.offset || sym->second.first != b.first_use ||
                   sym->second.last != b.last_use))
      return Bad(where + " disagrees with the other buffers of symbol " + std::to_string(b.symbol));
    p.buffers.push_back(std::move(b));
  }
  size_t outputs = 0;
  for (const auto& [name, n] : nodes) outputs += n->num_outputs();
  if (covered.size() != outputs) return Bad("not every node output has a buffer");
  return Status::Ok();
}

// IO bindings: one per model input and output, sized as its tensor.
Status DecodePlanIo(const MemoryPlanDef& d, const Model& m, MemoryPlan& p) {
  if (d.inputs_size() != static_cast<int>(m.inputs.size()) || d.outputs_size() != static_cast<int>(m.outputs.size()))
    return Bad("IO bindings do not match the model's inputs and outputs");
  for (int pass = 0; pass < 2; ++pass) {
    const auto& defs = pass == 0 ? d.inputs() : d.outputs();
    const Segment seg = pass == 0 ? Segment::kInput : Segment::kOutput;
    for (int i = 0; i < defs.size(); ++i) {
      const IoBindingDef& id = defs[i];
      const std::string where = std::string(pass == 0 ? "input " : "output ") + std::to_string(i);
      IoBinding io;
      io.offset = id.offset();
      io.size = id.size();
      io.copy = id.copy();
      GE_ASSIGN_OR_RETURN(io.source, DecodeArg(id.source(), where));
      const TensorDesc& desc = pass == 0 ? m.inputs[i].desc : m.outputs[i].desc;
      if (io.size != desc.Bytes()) return Bad(where + ": size " + std::to_string(io.size) + " is not the tensor's");
      GE_RETURN_IF_ERROR(CheckRange(seg, io.offset, io.size, p, where));
      if (pass == 0 && io.copy) return Bad(where + ": inputs are never copied");
      if (io.copy) GE_RETURN_IF_ERROR(CheckRange(io.source.segment, io.source.offset, io.size, p, where + " source"));
      (pass == 0 ? p.inputs : p.outputs).push_back(io);
    }
  }
  return Status::Ok();
}

// What the task decoder carries from task to task: kernel ids run 0..n-1
// in order, each node's kernel at most once, event ids below the task count.
struct TaskDecodeState {
  int32_t next_kernel = 0;
  std::set<std::string> kernel_nodes;
  int32_t max_event = -1;
  int64_t total_tasks = 0;
};

// An event record or wait: no arguments, an id in range.
Result<Task> DecodeEventTask(const TaskDef& td, const PlanNodes& nodes, const std::string& where, TaskDecodeState& state) {
  Task t;
  t.kind = static_cast<Task::Kind>(td.kind());
  t.node = td.node();
  t.kernel = td.kernel();
  t.event = td.event();
  if (t.event < 0 || t.event >= state.total_tasks)
    return Bad(where + ": event id " + std::to_string(t.event) + " is out of range");
  if (!t.node.empty() && !nodes.count(t.node)) return Bad(where + ": unknown node");
  if (td.inputs_size() != 0 || td.outputs_size() != 0) return Bad(where + ": an event task with arguments");
  state.max_event = std::max(state.max_event, t.event);
  return t;
}

// A kernel task: a known node, its arity, every argument in range, no
// output into a read-only segment.
Result<Task> DecodeKernelTask(const TaskDef& td, const PlanNodes& nodes, const MemoryPlan& p, const std::string& where,
                              TaskDecodeState& state) {
  if (td.kind() != 0) return Bad(where + ": task kind " + std::to_string(td.kind()) + " is not supported");
  Task t;
  t.kind = Task::Kind::kKernel;
  t.node = td.node();
  t.kernel = td.kernel();
  t.event = td.event();
  auto it = nodes.find(t.node);
  if (it == nodes.end()) return Bad(where + ": unknown node");
  if (!state.kernel_nodes.insert(t.node).second) return Bad(where + ": the node has a second kernel task");
  if (t.kernel != state.next_kernel++) return Bad(where + ": kernel id " + std::to_string(t.kernel) + " is out of sequence");
  const Node& n = *it->second;
  if (td.inputs_size() != static_cast<int>(n.num_inputs()) || td.outputs_size() != static_cast<int>(n.num_outputs()))
    return Bad(where + ": argument count does not match the node");
  for (int i = 0; i < td.inputs_size(); ++i) {
    GE_ASSIGN_OR_RETURN(TaskArg a, DecodeArg(td.inputs(i), where));
    if (a.offset == -1 && !n.HasInput(i)) {
      t.inputs.push_back(a);
      continue;
    }
    if (!n.HasInput(i)) return Bad(where + ": an argument for absent input " + std::to_string(i));
    Endpoint src = n.InputSource(i);
    GE_RETURN_IF_ERROR(CheckRange(a.segment, a.offset, src.node->output_desc(src.index).Bytes(), p,
                                  where + " input " + std::to_string(i)));
    t.inputs.push_back(a);
  }
  for (int i = 0; i < td.outputs_size(); ++i) {
    GE_ASSIGN_OR_RETURN(TaskArg a, DecodeArg(td.outputs(i), where));
    if (a.segment == Segment::kWeights || a.segment == Segment::kInput)
      return Bad(where + " output " + std::to_string(i) + " writes the read-only " + SegmentName(a.segment) + " segment");
    GE_RETURN_IF_ERROR(CheckRange(a.segment, a.offset, n.output_desc(i).Bytes(), p, where + " output " + std::to_string(i)));
    t.outputs.push_back(a);
  }
  return t;
}

// Event ids dense (each of 0..E-1 recorded) and the event graph without a
// cycle (a cycle would hang the run).
Status CheckPlanEvents(const std::vector<StreamTasks>& streams, int32_t max_event) {
  if (max_event < 0) return Status::Ok();
  std::set<int32_t> recorded;
  for (const StreamTasks& st : streams)
    for (const Task& t : st.tasks)
      if (t.kind == Task::Kind::kEventRecord) recorded.insert(t.event);
  for (int32_t e = 0; e <= max_event; ++e)
    if (!recorded.count(e)) return Bad("event " + std::to_string(e) + " is never recorded (events are numbered 0..E-1)");
  if (Status s = CheckEventGraph(streams); !s.ok()) return Bad(s.message());
  return Status::Ok();
}

// Tasks: streams numbered 0..S-1, each task an event or a kernel task.
Status DecodePlanTasks(const ModelDef& def, const PlanNodes& nodes, Model& m) {
  TaskDecodeState state;
  for (const StreamTasksDef& sd : def.streams()) state.total_tasks += sd.tasks_size();
  for (const StreamTasksDef& sd : def.streams()) {
    StreamTasks st;
    st.stream = sd.stream();
    if (st.stream != static_cast<int32_t>(m.streams.size()))
      return Bad("stream " + std::to_string(st.stream) + " is out of order (streams are numbered 0..S-1)");
    for (const TaskDef& td : sd.tasks()) {
      const std::string where = "stream " + std::to_string(st.stream) + " task " + td.node();
      const bool event = td.kind() == static_cast<int32_t>(Task::Kind::kEventRecord) ||
                         td.kind() == static_cast<int32_t>(Task::Kind::kEventWait);
      auto t = event ? DecodeEventTask(td, nodes, where, state) : DecodeKernelTask(td, nodes, m.memory, where, state);
      if (!t.ok()) return t.status();
      st.tasks.push_back(std::move(t).value());
    }
    m.streams.push_back(std::move(st));
  }
  return CheckPlanEvents(m.streams, state.max_event);
}

}  // namespace

Status DecodePlan(const ModelDef& def, Model& m) {
  if (!def.has_memory()) {
    if (def.streams_size() > 0) return Bad("task lists without a memory plan");
    return Status::Ok();
  }
  const MemoryPlanDef& d = def.memory();
  GE_RETURN_IF_ERROR(DecodePlanSizes(d, m.memory));
  PlanNodes nodes;
  for (Node* n : m.graph->nodes()) nodes[n->name()] = n;
  GE_RETURN_IF_ERROR(DecodePlanOrder(d, nodes, m.memory));
  GE_RETURN_IF_ERROR(DecodePlanBuffers(d, nodes, m.memory));
  GE_RETURN_IF_ERROR(DecodePlanIo(d, m, m.memory));
  return DecodePlanTasks(def, nodes, m);
}

}  // namespace ge::om
