#include "ge/ops/op_registry.h"

namespace ge {

const TensorDesc InferContext::kAbsent{};

InferContext::InferContext(Node& node, ValueFn values)
    : node_(node), values_(std::move(values)), bf16_as_f32_(node.HasAttr(kPrecisionAttr)) {
  if (bf16_as_f32_) as_f32_.resize(node.num_inputs());
}

const TensorDesc& InferContext::input(size_t i) const {
  if (!has_input(i)) return kAbsent;
  Endpoint src = node_.InputSource(i);
  const TensorDesc& d = src.node->output_desc(src.index);
  if (!bf16_as_f32_ || d.dtype != DataType::kBFloat16) return d;
  as_f32_[i] = d;
  as_f32_[i].dtype = DataType::kFloat32;
  return as_f32_[i];
}

const OpRegistry& OpRegistry::Global() {
  static const OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    RegisterBuiltinOps(*r);
    return r;
  }();
  return *registry;
}

void OpRegistry::Register(OpDef def) {
  std::string type = def.type;
  defs_[type] = std::move(def);
}

const OpDef* OpRegistry::Find(const std::string& type) const {
  auto it = defs_.find(type);
  return it == defs_.end() ? nullptr : &it->second;
}

std::vector<std::string> OpRegistry::Types() const {
  std::vector<std::string> t;
  for (const auto& [k, v] : defs_) t.push_back(k);
  return t;
}

Status InferNode(Node& node, const InferContext::ValueFn& values) {
  const OpDef* def = OpRegistry::Global().Find(node.type());
  if (!def) return Unsupported("node " + node.Label() + ": op type " + node.type() + " is not supported");
  // Trailing absent optional inputs do not count toward arity.
  int present = static_cast<int>(node.num_inputs());
  while (present > 0 && !node.HasInput(present - 1)) --present;
  if (present < def->min_inputs || (def->max_inputs >= 0 && present > def->max_inputs))
    return InvalidArgument("node " + node.Label() + ": takes " + std::to_string(def->min_inputs) + ".." +
                           (def->max_inputs < 0 ? std::string("n") : std::to_string(def->max_inputs)) +
                           " inputs, has " + std::to_string(present));
  for (int i = 0; i < def->min_inputs; ++i)
    if (!node.HasInput(i)) return InvalidArgument("node " + node.Label() + ": required input " + std::to_string(i) + " is missing");
  int outs = static_cast<int>(node.num_outputs());
  if (outs < def->min_outputs || (def->max_outputs >= 0 && outs > def->max_outputs))
    return InvalidArgument("node " + node.Label() + ": has " + std::to_string(outs) + " outputs, expected " +
                           std::to_string(def->min_outputs) + ".." +
                           (def->max_outputs < 0 ? std::string("n") : std::to_string(def->max_outputs)));
  // Keep in-anchor descs in step with the producers.
  for (size_t i = 0; i < node.num_inputs(); ++i) {
    Endpoint src = node.InputSource(i);
    if (src.valid()) node.input_desc(i) = src.node->output_desc(src.index);
  }
  if (!def->infer) return Status::Ok();
  InferContext ctx(node, values);
  GE_RETURN_IF_ERROR(def->infer(ctx));
  if (node.HasAttr(kPrecisionAttr) && node.GetString(kPrecisionAttr, "") == "bf16")
    for (size_t o = 0; o < node.num_outputs(); ++o)
      if (node.output_desc(o).dtype == DataType::kFloat32) node.output_desc(o).dtype = DataType::kBFloat16;
  return Status::Ok();
}

Result<std::vector<int64_t>> BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if ((a.size() == 1 && a[0] == kUnknownRank) || (b.size() == 1 && b[0] == kUnknownRank))
    return std::vector<int64_t>{kUnknownRank};
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db) out[i] = da;
    else if (da == 1) out[i] = db;
    else if (db == 1) out[i] = da;
    else if (da < 0 || db < 0) out[i] = std::max(da, db) > 1 ? std::max(da, db) : kUnknownDim;
    else
      return InvalidArgument("shapes " + DimsToString(a) + " and " + DimsToString(b) + " do not broadcast");
  }
  return out;
}

}  // namespace ge
