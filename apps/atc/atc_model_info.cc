#include "atc/atc_model_info.h"

#include <cstdio>
#include <set>

#include "ge/ops/kernel_spec.h"
#include "ge/plan.h"
#include "ge/plan/link.h"

namespace ge::atc {
namespace {

// An input with AIPP is the raw image: say which format it takes.
std::string IoLines(const char* what, const std::vector<IoDesc>& list, const Graph* g) {
  std::string s;
  for (size_t i = 0; i < list.size(); ++i) {
    s += std::string(what) + " " + std::to_string(i) + ": " + list[i].name + " " + list[i].desc.ToString();
    const Node* n = g ? g->FindNode(list[i].name) : nullptr;
    if (n && n->HasAttr("_aipp")) s += " (AIPP " + n->GetString("_aipp") + " image)";
    s += "\n";
  }
  return s;
}

// Weights packed ahead (weight_prepack): how many kernels, how many bytes,
// and for which oneDNN and ISA (the format's part before ':').
void CountPacked(const Graph& g, size_t& kernels, uint64_t& bytes, std::set<std::string>& targets) {
  for (const Node* n : g.nodes()) {
    bool any = false;
    for (const auto& [name, v] : n->attrs()) {
      if (const auto* sub = std::get_if<std::shared_ptr<Graph>>(&v); sub && *sub) CountPacked(**sub, kernels, bytes, targets);
      if (name.rfind(kPackedAttrPrefix, 0) != 0) continue;
      if (const Tensor* t = std::get_if<Tensor>(&v)) {
        bytes += t->size();
        any = true;
      } else if (const std::string* f = std::get_if<std::string>(&v)) {
        targets.insert(f->substr(0, f->find(':')));
      }
    }
    kernels += any;
  }
}

std::string PackedLine(const Model& m) {
  if (!m.graph) return "";
  size_t kernels = 0;
  uint64_t bytes = 0;
  std::set<std::string> targets;
  CountPacked(*m.graph, kernels, bytes, targets);
  if (kernels == 0) return "";
  std::string for_what;
  for (const std::string& t : targets) for_what += (for_what.empty() ? "" : ", ") + t;
  char mib[32];
  std::snprintf(mib, sizeof(mib), "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return "packed weights: " + std::to_string(kernels) + " kernels, " + mib + ", for " + for_what +
         " (another CPU repacks them at load, with a warning)\n";
}

}  // namespace

std::string ModelInfo(const Model& m) {
  std::string s = "model: " + m.name + "\n";
  s += "producer: " + m.producer + "\n";
  s += "framework: " + m.framework + " (source sha256 " + m.source_sha256 + ")\n";
  s += "device: " + m.target + "\n";
  for (const auto& [k, v] : m.options) s += "option " + k + ": " + v + "\n";
  s += IoLines("input", m.inputs, m.graph.get()) + IoLines("output", m.outputs, nullptr);
  size_t tasks = 0;
  for (const StreamTasks& st : m.streams) tasks += st.tasks.size();
  s += "graph: " + std::to_string(m.graph ? m.graph->num_nodes() : 0) + " nodes; " + std::to_string(m.streams.size()) +
       (m.streams.size() == 1 ? " stream, " : " streams, ") + std::to_string(tasks) + " tasks\n";
  s += PackedLine(m);
  s += MemoryLines(m);
  return s;
}

// A static model with control flow in its plan: what the loader links.
std::string ControlFlowLines(const Model& m) {
  auto linked = LinkModel(m);
  if (!linked.ok()) return "control flow: cannot link: " + linked.status().message() + "\n";
  std::string s = "control flow: " + std::to_string(m.partitions.size()) + " subgraph plan(s), linked into " +
                  std::to_string(linked->streams[0].tasks.size()) + " tasks with " + std::to_string(linked->num_labels) +
                  " labels at load (feature map " + std::to_string(linked->memory.feature_map_size) +
                  " B with the subgraphs' workspace, weights " + std::to_string(linked->memory.weights_size) +
                  " B; ge-atc --mode 1 lists them)\n";
  for (const SubgraphPlan& p : m.partitions) {
    size_t tasks = 0;
    for (const StreamTasks& st : p.streams) tasks += st.tasks.size();
    s += "subgraph " + p.node + "/" + p.subgraph + ": " + std::to_string(tasks) + " tasks; memory: " + MemoryReport(p.memory) + "\n";
  }
  return s;
}

std::string MemoryLines(const Model& m) {
  if (!m.dynamic)
    return "memory: " + MemoryReport(m.memory) + "\n" + (m.partitions.empty() ? std::string() : ControlFlowLines(m));
  if (const Node* gear_case = FindGearCase(m)) {
    const std::vector<size_t> gears = GearPartitions(m, gear_case->name());
    std::string s = "gear model: " + std::to_string(gears.size()) + " gear(s) (" + gear_case->GetString("gear_kind") +
                    "), one static plan each, weights shared\n";
    for (size_t i : gears) {
      const SubgraphPlan& p = m.partitions[i];
      std::string dims;
      for (const IoDesc& io : p.inputs) dims += (dims.empty() ? "" : " ") + io.name + DimsToString(io.desc.dims);
      s += p.subgraph + ": " + dims + "; memory: " + MemoryReport(p.memory) + "\n";
    }
    return s;
  }
  size_t by_shape = 0;
  if (m.graph)
    for (Node* n : m.graph->nodes())
      by_shape += n->type() != op::kData && n->type() != op::kNetOutput && n->type() != op::kConst &&
                  n->type() != op::kPartitionedCall && n->type() != op::kGearCase;
  std::string s = "dynamic model: " + std::to_string(by_shape) + " node(s) run by shape at run time (v2), " +
                  std::to_string(m.partitions.size()) + " known-shape partition(s)\n";
  for (const SubgraphPlan& p : m.partitions) {
    size_t tasks = 0;
    for (const StreamTasks& st : p.streams) tasks += st.tasks.size();
    s += "partition " + p.node + ": " + std::to_string(p.memory.order.size()) + " nodes, " + std::to_string(tasks) +
         " tasks; memory: " + MemoryReport(p.memory) + "\n";
  }
  return s;
}

}  // namespace ge::atc
