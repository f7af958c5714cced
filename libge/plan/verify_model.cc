// VerifyModel: the graph, its descs, the buffers and the task lists. The
// memory-sharing rules are in verify_memory.cc.
#include "ge/plan/verify.h"

#include <algorithm>
#include <set>

#include "ge/ir/verifier.h"
#include "ge/plan/link.h"
#include "ge/ops/kernel_spec.h"
#include "ge/ops/memory_alias.h"
#include "ge/ops/op_registry.h"
#include "verify_facts.h"

namespace ge {
namespace verify {
namespace {

bool SameShape(const TensorDesc& a, const TensorDesc& b) { return a.dtype == b.dtype && a.dims == b.dims; }

// `stored` is one of the shapes `inferred` allows. Inference at load sees
// constants only; a dim the compiler knew from a value computed at compile
// time (a Shape -> Gather chain left unfolded) comes back unknown here.
bool Conforms(const TensorDesc& stored, const TensorDesc& inferred) {
  if (stored.dtype != inferred.dtype) return false;
  if (inferred.unknown_rank()) return true;
  if (stored.dims.size() != inferred.dims.size()) return false;
  for (size_t i = 0; i < stored.dims.size(); ++i)
    if (inferred.dims[i] != kUnknownDim && inferred.dims[i] != stored.dims[i]) return false;
  return true;
}

// The model's IO descriptions are what callers size their buffers by.
Status CheckIoDescs(const Facts& f) {
  const Graph& g = *f.model.graph;
  const std::vector<Node*> data = g.InputNodes();
  if (f.model.inputs.size() != data.size())
    return Fail("the model describes " + std::to_string(f.model.inputs.size()) + " inputs, the graph has " +
                std::to_string(data.size()));
  for (size_t i = 0; i < data.size(); ++i)
    if (!SameShape(f.model.inputs[i].desc, data[i]->output_desc(0)))
      return Fail("input " + std::to_string(i) + " (" + f.model.inputs[i].name + ") is described as " +
                  f.model.inputs[i].desc.ToString() + " but its Data node is " + data[i]->output_desc(0).ToString());
  const Node* out = g.OutputNode();
  const size_t n_out = out ? out->num_inputs() : 0;
  if (f.model.outputs.size() != n_out)
    return Fail("the model describes " + std::to_string(f.model.outputs.size()) + " outputs, the graph has " +
                std::to_string(n_out));
  for (size_t i = 0; i < n_out; ++i) {
    const Endpoint src = out->InputSource(i);
    if (!SameShape(f.model.outputs[i].desc, src.node->output_desc(src.index)))
      return Fail("output " + std::to_string(i) + " (" + f.model.outputs[i].name + ") is described as " +
                  f.model.outputs[i].desc.ToString() + " but the graph gives it " + src.node->output_desc(src.index).ToString());
  }
  return Status::Ok();
}

// Each node's outputs are what its op computes from its inputs: a dtype or
// a dim edited in the file would make a kernel read or write the wrong
// bytes. Inference runs on a copy (tensors are shared, not copied), one node
// at a time on the stored input descs, so each node is checked locally.
Status CheckDescs(const Facts& f) {
  std::unique_ptr<Graph> copy = f.model.graph->Clone();
  for (Node* c : copy->nodes()) {
    if (IsStructuralNode(*c)) continue;
    const Node* orig = f.nodes.at(c->name());
    auto values = [c](size_t i) -> const Tensor* {
      const Node* src = c->InputNode(i);
      return src && src->type() == op::kConst ? src->GetTensor("value") : nullptr;
    };
    if (Status s = InferNode(*c, values); !s.ok()) return Fail(s.message());
    for (size_t i = 0; i < c->num_outputs(); ++i)
      if (!Conforms(orig->output_desc(i), c->output_desc(i)))
        return Fail("node " + orig->Label() + " output " + std::to_string(i) + " is " + orig->output_desc(i).ToString() +
                    " in the model, but its inputs make it " + c->output_desc(i).ToString());
  }
  return Status::Ok();
}

// Where each tensor lives: its bytes, aligned, inside its segment, and in the
// segment its producer implies.
Status CheckBuffers(Facts& f) {
  const MemoryPlan& p = f.plan;
  if (p.alignment < 64 || p.alignment > (int64_t{1} << 20) || (p.alignment & (p.alignment - 1)) != 0)
    return Fail("memory alignment " + std::to_string(p.alignment) + " is not a power of two of at least 64 (the kernels' contract)");
  for (Segment s : {Segment::kWeights, Segment::kFeatureMap, Segment::kInput, Segment::kOutput})
    if (p.SegmentSize(s) < 0) return Fail(std::string("the ") + SegmentName(s) + " segment has a negative size");
  for (const BufferPlan& b : p.buffers) {
    auto it = f.nodes.find(b.node);
    if (it == f.nodes.end()) return Fail("a buffer for unknown node " + b.node);
    if (b.output < 0 || static_cast<size_t>(b.output) >= it->second->num_outputs())
      return Fail("a buffer for " + b.node + " output " + std::to_string(b.output) + ", which does not exist");
    if (!f.buffers.insert({{it->second, b.output}, &b}).second)
      return Fail("tensor " + TensorName(it->second, b.output) + " has two buffers");
  }
  for (const auto& [name, n] : f.nodes)
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const int out = static_cast<int>(i);
      auto it = f.buffers.find({n, out});
      const std::string where = "tensor " + TensorName(n, out) + " (" + n->type() + ")";
      if (it == f.buffers.end()) return Fail(where + " has no buffer");
      const BufferPlan& b = *it->second;
      const int64_t bytes = n->output_desc(i).Bytes();
      if (bytes < 0) return Fail(where + " has the non-static shape " + n->output_desc(i).ToString());
      if (b.size != bytes)
        return Fail(where + ": its buffer has " + std::to_string(b.size) + " bytes, the tensor " + std::to_string(bytes));
      if (!p.Contains(b.segment, b.offset, b.size))
        return Fail(where + ": [" + Addr(b) + ", +" + std::to_string(b.size) + ") is outside the " + SegmentName(b.segment) +
                    " segment of " + std::to_string(p.SegmentSize(b.segment)) + " bytes");
      if (b.offset % p.alignment != 0) return Fail(where + " is at " + Addr(b) + ", which is not aligned");
      if (n->type() == op::kConst) {
        if (b.segment != Segment::kWeights) return Fail(where + ": a constant outside the weights segment");
      } else if (n->type() == op::kData) {
        if (b.segment != Segment::kInput) return Fail(where + ": a model input outside the input segment");
      } else if (const int k = AliasedInput(*n, i); k >= 0) {
        continue;  // at its input's address: checked once every buffer is indexed (below)
      } else if (b.segment != Segment::kFeatureMap && b.segment != Segment::kOutput) {
        return Fail(where + ": a kernel writes it, but it is in the read-only " + SegmentName(b.segment) + " segment");
      }
    }
  for (const auto& [name, n] : f.nodes)
    for (size_t i = 0; i < n->num_outputs(); ++i)
      if (const int k = AliasedInput(*n, i); k >= 0 && !IsStructuralNode(*n)) {
        const BufferPlan& own = f.Buffer(n, static_cast<int>(i));
        const BufferPlan& src = f.SourceBuffer(*n, k);
        if (own.segment != src.segment || own.offset != src.offset)
          return Fail("tensor " + TensorName(n, static_cast<int>(i)) + " (" + n->type() + ") shares input " +
                      std::to_string(k) + "'s memory, but is planned at " + Addr(own) + " and the input at " + Addr(src));
      }
  return Status::Ok();
}

// One kernel task per node that computes, none for the rest; arguments are
// the node's tensors' buffers.
Status CheckTasks(Facts& f) {
  auto hb = streams::HappensBefore::Build(f.model.streams);
  if (!hb.ok()) return Fail(hb.status().message());
  f.hb = std::move(hb).value();
  int32_t kernel = 0;
  for (size_t s = 0; s < f.model.streams.size(); ++s) {
    const auto& tasks = f.model.streams[s].tasks;
    for (size_t k = 0; k < tasks.size(); ++k) {
      const Task& t = tasks[k];
      if (t.kind != Task::Kind::kKernel) {
        if (!t.inputs.empty() || !t.outputs.empty())
          return Fail("stream " + std::to_string(s) + " task " + std::to_string(k) + ": an event task with arguments");
        continue;
      }
      const std::string where = "stream " + std::to_string(s) + " task " + std::to_string(k);
      auto it = f.nodes.find(t.node);
      if (it == f.nodes.end()) return Fail(where + " runs unknown node " + t.node);
      const Node& n = *it->second;
      if (!RunsKernel(n)) return Fail(where + " runs " + n.Label() + ", which has no kernel");
      if (!f.task.insert({&n, streams::TaskPos{static_cast<int32_t>(s), static_cast<int32_t>(k)}}).second)
        return Fail(where + " runs " + n.Label() + " a second time");
      if (t.kernel != kernel++) return Fail(where + ": kernel id " + std::to_string(t.kernel) + " is out of sequence");
      if (t.inputs.size() != n.num_inputs() || t.outputs.size() != n.num_outputs())
        return Fail(where + " (" + n.Label() + ") has " + std::to_string(t.inputs.size()) + " inputs / " +
                    std::to_string(t.outputs.size()) + " outputs, the node " + std::to_string(n.num_inputs()) + " / " +
                    std::to_string(n.num_outputs()));
      for (size_t i = 0; i < n.num_inputs(); ++i) {
        const TaskArg& a = t.inputs[i];
        if (!n.HasInput(i)) {
          if (a.offset != -1) return Fail("node " + n.Label() + " input " + std::to_string(i) + " is absent but its task reads " + Addr(a.segment, a.offset));
          continue;
        }
        const BufferPlan& b = f.SourceBuffer(n, i);
        if (a.segment != b.segment || a.offset != b.offset)
          return Fail("node " + n.Label() + " input " + std::to_string(i) + ": the task reads " + Addr(a.segment, a.offset) +
                      ", but tensor " + b.node + ":" + std::to_string(b.output) + " is at " + Addr(b));
      }
      for (size_t i = 0; i < n.num_outputs(); ++i) {
        const TaskArg& a = t.outputs[i];
        const BufferPlan& b = f.Buffer(&n, static_cast<int>(i));
        if (a.segment != b.segment || a.offset != b.offset)
          return Fail("node " + n.Label() + " output " + std::to_string(i) + ": the task writes " + Addr(a.segment, a.offset) +
                      ", but the tensor is planned at " + Addr(b));
      }
    }
  }
  for (const auto& [name, n] : f.nodes)
    if (RunsKernel(*n) && !f.task.count(n)) return Fail("node " + n->Label() + " has no task: it would never run");
  return Status::Ok();
}

// Dependencies: every task that makes a node's input valid happens before
// the node's task, whatever the streams do. Nodes without a task (aliases)
// pass their inputs' producers on.
Status CheckDependencies(const Facts& f) {
  std::map<const Node*, std::vector<const Node*>> ready;  // the kernel nodes a node's outputs wait for
  for (const Node* n : f.topo) {
    std::vector<const Node*> deps;
    for (size_t i = 0; i < n->num_inputs(); ++i)
      if (const Node* src = n->InputNode(i)) deps.push_back(src);
    deps.insert(deps.end(), n->control_inputs().begin(), n->control_inputs().end());
    auto self = f.task.find(n);
    std::set<const Node*> producers;
    for (const Node* d : deps) {
      const auto& r = ready[d];
      producers.insert(r.begin(), r.end());
    }
    if (self != f.task.end()) {
      for (const Node* p : producers)
        if (!f.hb->Before(f.task.at(p), self->second))
          return Fail("node " + n->Label() + " may run before " + p->Label() + ", whose result it needs (stream " +
                      std::to_string(self->second.stream) + " task " + std::to_string(self->second.index) + ")");
      ready[n] = {n};
    } else if (!IsStructuralNode(*n)) {
      ready[n] = std::vector<const Node*>(producers.begin(), producers.end());
    }
  }
  return Status::Ok();
}

// The plan's order: every node once, a topological order, and one the
// streams allow (v2 runs a multi-stream model's kernels in it).
Status CheckOrder(const Facts& f) {
  std::map<const Node*, size_t> step;
  for (size_t i = 0; i < f.plan.order.size(); ++i) {
    auto it = f.nodes.find(f.plan.order[i]);
    if (it == f.nodes.end()) return Fail("the execution order names unknown node " + f.plan.order[i]);
    if (!step.insert({it->second, i}).second) return Fail("the execution order lists " + it->second->Label() + " twice");
  }
  if (step.size() != f.nodes.size()) return Fail("the execution order leaves nodes out");
  for (const auto& [name, n] : f.nodes) {
    for (size_t i = 0; i < n->num_inputs(); ++i)
      if (const Node* src = n->InputNode(i); src && step[src] >= step[n])
        return Fail("the execution order runs " + n->Label() + " before its input " + src->Label());
    for (const Node* c : n->control_inputs())
      if (step[c] >= step[n]) return Fail("the execution order runs " + n->Label() + " before its control input " + c->Label());
  }
  // Stream order and every record -> wait edge go forward in the order.
  const auto& streams = f.model.streams;
  auto kernel_step = [&](streams::TaskPos p) { return step.at(f.nodes.at(streams[p.stream].tasks[p.index].node)); };
  for (const auto& [n, pos] : f.task) {
    const auto& tasks = streams[pos.stream].tasks;
    for (int32_t k = pos.index + 1; k < static_cast<int32_t>(tasks.size()); ++k)
      if (tasks[k].kind == Task::Kind::kKernel) {
        if (kernel_step({pos.stream, k}) <= step.at(n))
          return Fail("stream " + std::to_string(pos.stream) + " runs " + n->Label() + " before " + tasks[k].node +
                      ", against the execution order");
        break;
      }
  }
  Status bad = Status::Ok();
  GE_RETURN_IF_ERROR(streams::Replay(streams, nullptr, [&](streams::TaskPos wait, streams::TaskPos record) {
    if (!bad.ok()) return;
    int32_t before = record.index, after = wait.index;
    const auto& rt = streams[record.stream].tasks;
    const auto& wt = streams[wait.stream].tasks;
    while (before >= 0 && rt[before].kind != Task::Kind::kKernel) --before;
    while (after < static_cast<int32_t>(wt.size()) && wt[after].kind != Task::Kind::kKernel) ++after;
    if (before >= 0 && after < static_cast<int32_t>(wt.size()) &&
        kernel_step({record.stream, before}) >= kernel_step({wait.stream, after}))
      bad = Fail("event " + std::to_string(wt[wait.index].event) + " orders " + rt[before].node + " before " + wt[after].node +
                 ", against the execution order");
  }));
  return bad;
}

// A static model's control flow: each If / Loop node's subgraphs are
// static models with plans of their own, checked as such (nested ones by
// the subgraph that holds them), and the plans link (ge/plan/link.h).
Status CheckControlFlowPlans(const Model& model) {
  const Graph& g = *model.graph;
  for (size_t i = 0; i < model.partitions.size(); ++i) {
    const SubgraphPlan& p = model.partitions[i];
    const Node* owner = FindNodeByPath(g, p.node);
    if (!owner || !IsLinkedControlFlow(*owner))
      return Fail("a subgraph plan for " + p.node + ", which is not an If or Loop node of the graph");
    const std::vector<std::string> subs = LinkedSubgraphs(*owner);
    if (std::find(subs.begin(), subs.end(), p.subgraph) == subs.end())
      return Fail("a plan for subgraph '" + p.subgraph + "' of " + owner->Label() + ", which links only its " +
                  (owner->type() == "If" ? "branches" : "body"));
    for (size_t j = 0; j < i; ++j)
      if (model.partitions[j].node == p.node && model.partitions[j].subgraph == p.subgraph)
        return Fail("subgraph '" + p.subgraph + "' of " + owner->Label() + " has two plans");
    if (g.FindNode(p.node) != owner) continue;  // nested: its own subgraph's check covers it
    GE_ASSIGN_OR_RETURN(Model sub, PartitionModel(model, i));
    GE_RETURN_IF_ERROR(VerifyModel(sub).Annotated("subgraph " + p.node + "/" + p.subgraph));
  }
  for (const Node* n : g.nodes()) {
    if (!IsLinkedControlFlow(*n) && !n->subgraphs().empty())
      return Fail("node " + n->Label() + " has subgraphs, which a static model runs only for If and Loop");
    if (!IsLinkedControlFlow(*n)) continue;
    for (const std::string& sub : LinkedSubgraphs(*n))
      if (std::none_of(model.partitions.begin(), model.partitions.end(),
                       [&](const SubgraphPlan& p) { return p.node == n->name() && p.subgraph == sub; }))
        return Fail("node " + n->Label() + ": subgraph '" + sub + "' has no plan");
  }
  if (model.partitions.empty()) return Status::Ok();
  return LinkModel(model).status();
}

}  // namespace

Status PrepareMemoryFacts(Facts& f) {
  for (const Node* n : f.model.graph->nodes()) f.nodes[n->name()] = n;
  GE_ASSIGN_OR_RETURN(f.topo, f.model.graph->TopologicalOrder());
  GE_RETURN_IF_ERROR(CheckBuffers(f));
  return CheckTasks(f);
}

}  // namespace verify

Result<std::vector<MemoryOverlap>> FindMemoryOverlaps(const Model& model) {
  using namespace verify;
  if (!model.graph) return Fail("the model has no graph");
  std::vector<MemoryOverlap> out;
  if (model.dynamic) {
    for (size_t i = 0; i < model.partitions.size(); ++i) {
      GE_ASSIGN_OR_RETURN(Model sub, PartitionModel(model, i));
      GE_ASSIGN_OR_RETURN(std::vector<MemoryOverlap> more, FindMemoryOverlaps(sub));
      for (MemoryOverlap& m : more) {
        if (m.graph.empty()) m.graph = sub.name;
        out.push_back(std::move(m));
      }
    }
    return out;
  }
  if (model.memory.empty() || model.streams.empty()) return Fail("the model has no memory plan or no task lists");
  Facts f(model);
  GE_RETURN_IF_ERROR(PrepareMemoryFacts(f));
  GE_RETURN_IF_ERROR(FindOverlaps(f, &out));
  return out;
}

Status VerifyModel(const Model& model) {
  using namespace verify;
  if (!model.graph) return Fail("the model has no graph");
  if (Status s = VerifyGraph(*model.graph); !s.ok()) return Fail(s.message());
  // A dynamic model has no plan of its own: each partition (a known-shape
  // cluster, or a gear) is a static model with its plan, checked as one.
  if (model.dynamic) {
    if (!model.memory.empty() || !model.streams.empty()) return Fail("a dynamic model has a plan of its own");
    for (size_t i = 0; i < model.partitions.size(); ++i) {
      GE_ASSIGN_OR_RETURN(Model sub, PartitionModel(model, i));
      GE_RETURN_IF_ERROR(VerifyModel(sub).Annotated("partition " + sub.name));
    }
    return Status::Ok();
  }
  if (model.memory.empty() || model.streams.empty()) return Fail("the model has no memory plan or no task lists");
  GE_RETURN_IF_ERROR(CheckControlFlowPlans(model));
  Facts f(model);
  for (const Node* n : model.graph->nodes()) f.nodes[n->name()] = n;
  GE_ASSIGN_OR_RETURN(f.topo, model.graph->TopologicalOrder());
  GE_RETURN_IF_ERROR(CheckIoDescs(f));
  GE_RETURN_IF_ERROR(CheckDescs(f));
  GE_RETURN_IF_ERROR(CheckBuffers(f));
  GE_RETURN_IF_ERROR(CheckTasks(f));
  GE_RETURN_IF_ERROR(CheckDependencies(f));
  GE_RETURN_IF_ERROR(CheckOrder(f));
  return CheckMemory(f);
}

}  // namespace ge
