#include "onnx_model_prep.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <set>

#include "ge_parsers/onnx_parser.h"
#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"
#include "onnx_cerr_capture.h"
#include "onnx_guarded_schemas.h"
#include "onnx_tensor.h"

namespace ge::onnx_parser {

void ForEachSubgraph(const onnx::GraphProto& g, const std::function<void(const onnx::GraphProto&)>& fn) {
  for (const auto& n : g.node())
    for (const auto& a : n.attribute()) {
      if (a.has_g()) fn(a.g());
      for (const auto& sg : a.graphs()) fn(sg);
    }
}

std::string NodeDisplayName(const onnx::NodeProto& n, int index) {
  if (!n.name().empty()) return n.name();
  for (const auto& o : n.output())
    if (!o.empty()) return o;
  return n.op_type() + "_" + std::to_string(index);
}

namespace {

Status CheckGraphTensors(const onnx::GraphProto& g) {
  for (const auto& t : g.initializer()) GE_RETURN_IF_ERROR(CheckTensorData(t, "initializer '" + t.name() + "'"));
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    for (const auto& a : n.attribute()) {
      const std::string what = NodeDisplayName(n, i) + " (" + n.op_type() + "): attribute '" + a.name() + "'";
      if (a.has_t()) GE_RETURN_IF_ERROR(CheckTensorData(a.t(), what));
      // TENSORS attributes are refused later as a kind; only external data matters here.
      for (const auto& t : a.tensors())
        if (HasExternalData(t)) return CheckTensorData(t, what);
    }
  }
  Status st;
  ForEachSubgraph(g, [&](const onnx::GraphProto& sg) {
    if (st.ok()) st = CheckGraphTensors(sg);
  });
  return st;
}

void CollectForeign(const onnx::GraphProto& g, std::vector<std::string>* out) {
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    if (!IsDefaultDomain(n.domain()))
      out->push_back(NodeDisplayName(n, i) + " (" + n.domain() + ":" + n.op_type() + ")");
  }
  ForEachSubgraph(g, [&](const onnx::GraphProto& sg) { CollectForeign(sg, out); });
}

// Drops recorded intermediate shapes here and in every subgraph.
void ClearValueInfo(onnx::GraphProto* g) {
  g->clear_value_info();
  for (auto& n : *g->mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) ClearValueInfo(a.mutable_g());
      for (auto& sg : *a.mutable_graphs()) ClearValueInfo(&sg);
    }
}

// Nodes the converter rebuilds (Upsample → Resize, ...) come back unnamed;
// their first output keeps its name, which leads back to the user's name.
std::map<std::string, std::string> NodeNamesByFirstOutput(const onnx::GraphProto& g) {
  std::map<std::string, std::string> names;
  for (const auto& n : g.node())
    if (!n.name().empty() && n.output_size() > 0 && !n.output(0).empty()) names.emplace(n.output(0), n.name());
  return names;
}

void RestoreNodeNames(onnx::GraphProto* g, const std::map<std::string, std::string>& names) {
  std::set<std::string> taken;
  for (const auto& n : g->node()) taken.insert(n.name());
  for (auto& n : *g->mutable_node()) {
    if (!n.name().empty() || n.output_size() == 0) continue;
    auto it = names.find(n.output(0));
    if (it != names.end() && taken.insert(it->second).second) n.set_name(it->second);
  }
}

// "n1 (ImageScaler), n2 (Crop)": nodes whose op has no live schema at `opset`.
std::string OpsMissingAt(const onnx::GraphProto& g, int64_t opset) {
  std::string out;
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(n.op_type(), static_cast<int>(opset), n.domain());
    if (!schema || schema->Deprecated())
      out += (out.empty() ? "" : ", ") + NodeDisplayName(n, i) + " (" + n.op_type() + ")";
  }
  return out;
}

}  // namespace

std::string OneLine(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  bool space = false;
  for (char c : s) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

int64_t DefaultDomainOpset(const onnx::ModelProto& model) {
  int64_t v = -1;
  for (const auto& op : model.opset_import())
    if (IsDefaultDomain(op.domain())) v = std::max<int64_t>(v, op.version());
  return v;
}

Status CheckTensors(const onnx::GraphProto& graph) { return CheckGraphTensors(graph); }

Status RejectForeignDomains(const onnx::GraphProto& graph) {
  std::vector<std::string> nodes;
  CollectForeign(graph, &nodes);
  if (nodes.empty()) return Status::Ok();
  std::string list;
  for (const auto& n : nodes) list += (list.empty() ? "" : ", ") + n;
  return Unsupported(std::to_string(nodes.size()) + (nodes.size() == 1 ? " node uses" : " nodes use") +
                     " an operator domain other than the default ONNX domain, which ge does not support: " + list);
}

Status CheckModel(const onnx::ModelProto& model) {
  CerrCapture capture;
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    return InvalidArgument("invalid ONNX model: " + OneLine(e.what()));
  } catch (...) {
    return InvalidArgument("invalid ONNX model: the onnx checker failed without a message");
  }
  return Status::Ok();
}

// The converter's Scan 8 -> 9 adapter drops the batch axis from the
// shapes of the values around the node without adding a Squeeze or
// Unsqueeze, so the converted model no longer takes its own inputs. The v2
// runtime runs opset-8 Scan as it is (a batch axis, sequence_lens): each
// such node gets its inputs and `directions` back, and attribute
// _scan_opset = 8, and graph inputs and outputs keep their declared types.
void KeepOpset8Scans(const onnx::GraphProto& before, onnx::GraphProto* after) {
  std::map<std::string, const onnx::NodeProto*> scans;  // by first output
  for (const onnx::NodeProto& n : before.node())
    if (n.op_type() == "Scan" && n.domain().empty() && n.output_size() > 0) scans[n.output(0)] = &n;
  if (scans.empty()) return;
  for (onnx::NodeProto& n : *after->mutable_node()) {
    if (n.op_type() != "Scan" || n.output_size() == 0) continue;
    auto it = scans.find(n.output(0));
    if (it == scans.end()) continue;
    *n.mutable_input() = it->second->input();
    onnx::NodeProto restored = *it->second;
    *n.mutable_attribute() = restored.attribute();
    onnx::AttributeProto* mark = n.add_attribute();
    mark->set_name("_scan_opset");
    mark->set_type(onnx::AttributeProto::INT);
    mark->set_i(8);
  }
  std::map<std::string, const onnx::ValueInfoProto*> declared;
  for (const auto& v : before.input()) declared[v.name()] = &v;
  for (const auto& v : before.output()) declared[v.name()] = &v;
  for (auto* list : {after->mutable_input(), after->mutable_output()})
    for (onnx::ValueInfoProto& v : *list)
      if (auto d = declared.find(v.name()); d != declared.end()) *v.mutable_type() = d->second->type();
  after->clear_value_info();  // inferred again, from the declared types
}

Status ConvertOpsetIfNeeded(onnx::ModelProto* model, int64_t* opset) {
  const int64_t from = DefaultDomainOpset(*model);
  *opset = from;
  if (from < 0) return InvalidArgument("the model imports no opset of the default ONNX domain");
  if (from >= kMinNativeOnnxOpset && from <= kMaxNativeOnnxOpset) return Status::Ok();
  // 13 is the opset most exporters target and the converter's adapters cover
  // best; newer models only go down as far as they must.
  const int64_t to = from < kMinNativeOnnxOpset ? std::clamp<int64_t>(13, kMinNativeOnnxOpset, kMaxNativeOnnxOpset)
                                                : kMaxNativeOnnxOpset;
  const std::string what = "cannot convert opset " + std::to_string(from) + " to " + std::to_string(to);
  // The converter needs adapters from the model's opset; past what the
  // installed onnx library knows it only fails with an assertion.
  const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  const auto known = ranges.find(onnx::ONNX_DOMAIN);
  if (known != ranges.end() && from > known->second.second)
    return Unsupported(what + ": the installed onnx library knows opsets up to " +
                       std::to_string(known->second.second) + "; export the model with an opset from " +
                       std::to_string(kMinNativeOnnxOpset) + " to " + std::to_string(kMaxNativeOnnxOpset));
  const std::map<std::string, std::string> names = NodeNamesByFirstOutput(model->graph());
  const onnx::ModelProto original = from < 9 ? *model : onnx::ModelProto();
  std::string error;
  CerrCapture capture;
  try {
    onnx::ModelProto converted = onnx::version_conversion::ConvertVersion(*model, static_cast<int>(to));
    *model = std::move(converted);
    if (from < 9) KeepOpset8Scans(original.graph(), model->mutable_graph());
  } catch (const std::exception& e) {
    error = OneLine(e.what());
  } catch (...) {
    error = "the onnx version converter failed without a message";
  }
  if (!error.empty()) {
    // The converter's own message ("unordered_map::at") rarely says which op.
    const std::string missing = OpsMissingAt(model->graph(), to);
    return Unsupported(what + " (ge handles opsets " + std::to_string(kMinNativeOnnxOpset) + "-" +
                       std::to_string(kMaxNativeOnnxOpset) + " natively)" +
                       (missing.empty() ? "" : "; no opset " + std::to_string(to) + " form exists for " + missing) +
                       ": " + error);
  }
  *opset = DefaultDomainOpset(*model);
  if (*opset != to) return Internal(what + ": the converter produced opset " + std::to_string(*opset));
  RestoreNodeNames(model->mutable_graph(), names);
  return Status::Ok();
}

Status ApplyInputShapes(onnx::ModelProto* model, const std::map<std::string, std::vector<int64_t>>& shapes) {
  if (shapes.empty()) return Status::Ok();
  onnx::GraphProto* g = model->mutable_graph();
  std::set<std::string> initializers;
  for (const auto& t : g->initializer()) initializers.insert(t.name());
  std::map<std::string, onnx::ValueInfoProto*> inputs;
  std::string names;
  for (auto& in : *g->mutable_input()) {
    if (initializers.count(in.name())) continue;  // a weight with a default, not a graph input
    inputs[in.name()] = &in;
    names += (names.empty() ? "" : ", ") + in.name();
  }
  for (const auto& [name, dims] : shapes) {
    auto it = inputs.find(name);
    if (it == inputs.end())
      return InvalidArgument("input shape given for '" + name +
                             "', which is not a graph input; the inputs are: " + (names.empty() ? "(none)" : names));
    onnx::TypeProto* type = it->second->mutable_type();
    if (!type->has_tensor_type()) return InvalidArgument("input shape given for '" + name + "', which is not a tensor");
    onnx::TensorShapeProto* shape = type->mutable_tensor_type()->mutable_shape();
    shape->clear_dim();
    for (int64_t d : dims) {
      if (d < -1) return InvalidArgument("input shape for '" + name + "' has dimension " + std::to_string(d));
      auto* dim = shape->add_dim();
      if (d >= 0) dim->set_dim_value(d);  // -1: left unknown
    }
  }
  // Shapes recorded for the old input shapes would now contradict inference.
  ClearValueInfo(g);
  for (auto& out : *g->mutable_output())
    if (out.type().has_tensor_type()) out.mutable_type()->mutable_tensor_type()->clear_shape();
  return Status::Ok();
}

Status InferShapes(onnx::ModelProto* model) {
  // strict: an op whose inference fails is an error, not a silently missing
  // shape; data propagation carries Shape → Slice → Reshape chains.
  const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*strict_mode=*/1, /*data_prop=*/true);
  CerrCapture capture;
  try {
    onnx::shape_inference::InferShapes(*model, GuardedSchemaRegistry(), options);
  } catch (const std::exception& e) {
    return InvalidArgument("shape inference failed: " + OneLine(e.what()));
  } catch (...) {
    return InvalidArgument("shape inference failed without a message");
  }
  return Status::Ok();
}

}  // namespace ge::onnx_parser
