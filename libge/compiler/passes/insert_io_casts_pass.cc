// prepare: insert_io_casts. ATC's model IO dtypes: --input_fp16_nodes makes
// the named float32 inputs float16 with a Cast to float32 behind them, and
// --output_type casts float32 outputs to FP16/UINT8/INT8 in front of
// NetOutput (ATC's own way: a Cast op at the boundary; the model inside
// still computes in float32). Integer outputs truncate towards zero and
// saturate, as ge's Cast does.
#include <algorithm>
#include <map>

#include "pass.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

int64_t OnnxTypeOf(DataType t) {
  switch (t) {
    case DataType::kFloat16: return 10;
    case DataType::kUInt8: return 2;
    case DataType::kInt8: return 3;
    default: return 1;  // float32
  }
}

Node* AddCast(Graph& g, const std::string& base, DataType to) {
  Node* cast = g.AddNode("Cast", g.MakeUniqueName(base), 1, 1);
  cast->SetAttr("to", OnnxTypeOf(to));
  return cast;
}

Status CastInputs(Graph& g, const std::vector<std::string>& names) {
  std::map<std::string, Node*> inputs;
  std::string list;
  for (Node* d : g.InputNodes()) {
    inputs[d->name()] = d;
    list += (list.empty() ? "" : ", ") + d->name();
  }
  for (const std::string& name : names) {
    auto it = inputs.find(name);
    if (it == inputs.end())
      return InvalidArgument("--input_fp16_nodes: '" + name + "' is not a model input (inputs: " + list + ")");
    Node* data = it->second;
    if (data->output_desc(0).dtype != DataType::kFloat32 || data->HasAttr("_aipp"))
      return InvalidArgument("--input_fp16_nodes: input '" + name + "' is " + data->output_desc(0).ToString() +
                             (data->HasAttr("_aipp") ? " with AIPP" : "") + "; only a float32 input can take float16");
    Node* cast = AddCast(g, name + "_fp16_to_fp32", DataType::kFloat32);
    cast->output_desc(0) = data->output_desc(0);
    GE_RETURN_IF_ERROR(g.ReplaceAllUses({data, 0}, {cast, 0}));
    data->output_desc(0).dtype = DataType::kFloat16;
    GE_RETURN_IF_ERROR(g.AddEdge(data, 0, cast, 0));
  }
  return Status::Ok();
}

std::string OutputId(const std::string& node, int64_t index) { return node + ":" + std::to_string(index); }

// The rule for output `id`: the last one naming it, else the one for every output.
const CompileOptions::OutputType* RuleFor(const std::vector<CompileOptions::OutputType>& rules, const std::string& id) {
  const CompileOptions::OutputType *named = nullptr, *all = nullptr;
  for (const auto& r : rules) {
    if (r.node.empty()) {
      if (!all) all = &r;
    } else if (OutputId(r.node, r.index) == id) {
      named = &r;
    }
  }
  return named ? named : all;
}

Status CastOutputs(Graph& g, const std::vector<CompileOptions::OutputType>& rules) {
  Node* out = g.OutputNode();
  if (!out || rules.empty()) return Status::Ok();
  // The outputs by producer, "node:index": every named rule must be one.
  std::vector<std::string> ids(out->num_inputs());
  std::string list;
  for (size_t i = 0; i < ids.size(); ++i) {
    const Endpoint src = out->InputSource(i);
    if (!src.valid()) continue;
    ids[i] = OutputId(src.node->name(), src.index);
    list += (list.empty() ? "" : ", ") + ids[i];
  }
  for (const auto& r : rules)
    if (!r.node.empty() && std::find(ids.begin(), ids.end(), OutputId(r.node, r.index)) == ids.end())
      return InvalidArgument("--output_type " + OutputId(r.node, r.index) + " is not a model output (outputs: " + list +
                             ")");
  opt::PinOutputNames(g);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i].empty()) continue;
    const CompileOptions::OutputType* rule = RuleFor(rules, ids[i]);
    if (!rule || rule->dtype == DataType::kFloat32) continue;
    const Endpoint src = out->InputSource(i);
    const TensorDesc& desc = src.node->output_desc(src.index);
    if (desc.dtype != DataType::kFloat32) {
      if (rule->node.empty()) continue;  // "all outputs": the float ones
      return InvalidArgument("--output_type " + ids[i] + ": the output is " + desc.ToString() +
                             "; only float32 outputs change type");
    }
    Node* cast = AddCast(g, src.node->name() + "_to_" + DataTypeName(rule->dtype), rule->dtype);
    cast->output_desc(0) = TensorDesc(rule->dtype, desc.dims);
    g.RemoveInputEdge(out, static_cast<int>(i));
    GE_RETURN_IF_ERROR(g.AddEdge(src.node, src.index, cast, 0));
    GE_RETURN_IF_ERROR(g.AddEdge(cast, 0, out, static_cast<int>(i)));
  }
  return Status::Ok();
}

Status RunInsertIoCasts(Graph& g, const PassContext& ctx) {
  if (!ctx.options) return Status::Ok();
  GE_RETURN_IF_ERROR(CastInputs(g, ctx.options->fp16_inputs));
  return CastOutputs(g, ctx.options->output_types);
}

}  // namespace

Pass InsertIoCastsPass() { return Pass{"insert_io_casts", "prepare", RunInsertIoCasts}; }

}  // namespace ge
