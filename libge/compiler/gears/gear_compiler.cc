#include "gears/gear_compiler.h"

#include <spdlog/spdlog.h>

namespace ge::gears {
namespace {

std::string DimsText(const std::vector<std::vector<int64_t>>& inputs) {
  std::string s;
  for (const auto& dims : inputs) {
    s += s.empty() ? "[" : ";[";
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
    s += "]";
  }
  return s;
}

// What all gears have in common: a dim that differs becomes unknown.
Result<TensorDesc> Merge(const std::vector<Model>& gears, bool input, size_t k) {
  TensorDesc d = (input ? gears[0].inputs : gears[0].outputs)[k].desc;
  for (const Model& g : gears) {
    const auto& list = input ? g.inputs : g.outputs;
    if (k >= list.size()) return Internal("gears differ in their number of " + std::string(input ? "inputs" : "outputs"));
    const TensorDesc& e = list[k].desc;
    if (e.dtype != d.dtype || e.format != d.format || e.dims.size() != d.dims.size())
      return Internal(std::string(input ? "input " : "output ") + list[k].name + " is " + d.ToString() + " in one gear and " +
                      e.ToString() + " in another");
    for (size_t i = 0; i < d.dims.size(); ++i)
      if (e.dims[i] != d.dims[i]) d.dims[i] = kUnknownDim;
  }
  return d;
}

const char* KindName(GearOptions::Kind kind) {
  switch (kind) {
    case GearOptions::Kind::kBatch: return "batch";
    case GearOptions::Kind::kImageSize: return "image_size";
    default: return "dims";
  }
}

}  // namespace

Result<Model> CompileGears(std::unique_ptr<Graph> graph, const CompileOptions& options) {
  GE_ASSIGN_OR_RETURN(auto gear_dims, ResolveGears(*graph, options.gears));
  const std::string flag = GearFlagName(options.gears.kind);
  CompileOptions one = options;
  one.gears = {};
  one.sink_control_flow = false;  // a gear's plan holds no subgraph plans
  std::vector<Model> gears;
  for (size_t i = 0; i < gear_dims.size(); ++i) {
    const std::string text = "gear " + std::to_string(i) + " " + DimsText(gear_dims[i]);
    spdlog::info("compiling {} of {}", text, gear_dims.size());
    auto g = graph->Clone();
    const std::vector<Node*> data = g->InputNodes();
    for (size_t k = 0; k < data.size(); ++k) data[k]->output_desc(0).dims = gear_dims[i][k];
    auto m = Compile(std::move(g), one);
    if (!m.ok()) return m.status().Annotated(flag + " " + text);
    if (m->dynamic) {
      std::string node;
      for (const Node* n : m->graph->nodes())
        for (size_t j = 0; j < n->num_outputs() && node.empty(); ++j)
          if (!n->output_desc(j).is_static()) node = n->Label() + " is " + n->output_desc(j).ToString();
      return InvalidArgument(flag + " " + text + ": shapes stay unknown with these dims (" + node +
                             "): every -1 dim of the inputs must take a value from the gear");
    }
    gears.push_back(std::move(*m));
  }

  // The root graph: the inputs, one GearCase over the gears, the outputs.
  const Model& first = gears[0];
  auto root = std::make_unique<Graph>(first.graph->name());
  const std::vector<Node*> data = first.graph->InputNodes();
  Node* out = first.graph->OutputNode();
  if (!out) return Internal("gear 0 has no NetOutput");
  Node* gear_case = root->AddNode(op::kGearCase, "gear_case", data.size(), out->num_inputs());
  gear_case->SetAttr("gear_kind", std::string(KindName(options.gears.kind)));
  for (size_t k = 0; k < data.size(); ++k) {
    Node* d = root->AddNodeCopy(*data[k]);
    GE_ASSIGN_OR_RETURN(d->output_desc(0), Merge(gears, true, k));
    GE_RETURN_IF_ERROR(root->AddEdge(d, 0, gear_case, static_cast<int>(k)));
  }
  Node* net_output = root->AddNodeCopy(*out);
  for (size_t j = 0; j < out->num_inputs(); ++j) {
    GE_ASSIGN_OR_RETURN(gear_case->output_desc(j), Merge(gears, false, j));
    GE_RETURN_IF_ERROR(root->AddEdge(gear_case, static_cast<int>(j), net_output, static_cast<int>(j)));
  }

  Model m = CopyModelInfo(first);
  m.dynamic = true;
  for (size_t i = 0; i < gears.size(); ++i) {
    SubgraphPlan p;
    p.node = gear_case->name();
    p.subgraph = "gear" + std::to_string(i);
    p.inputs = gears[i].inputs;
    p.outputs = gears[i].outputs;
    p.memory = std::move(gears[i].memory);
    p.streams = std::move(gears[i].streams);
    gear_case->subgraphs()[p.subgraph] = std::shared_ptr<Graph>(std::move(gears[i].graph));
    m.partitions.push_back(std::move(p));
  }
  m.graph = std::move(root);
  DescribeModelIo(m);
  spdlog::info("gear model: {} gear(s) ({})", m.partitions.size(), flag);
  return m;
}

}  // namespace ge::gears
