#include "tf_attrs.h"

namespace ge::tf_parser {

namespace {

const char* KindName(tf::AttrValue::ValueCase c) {
  switch (c) {
    case tf::AttrValue::kS: return "string";
    case tf::AttrValue::kI: return "int";
    case tf::AttrValue::kF: return "float";
    case tf::AttrValue::kB: return "bool";
    case tf::AttrValue::kType: return "type";
    case tf::AttrValue::kShape: return "shape";
    case tf::AttrValue::kTensor: return "tensor";
    case tf::AttrValue::kList: return "list";
    case tf::AttrValue::kFunc: return "func";
    case tf::AttrValue::kPlaceholder: return "placeholder";
    default: return "empty";
  }
}

// The attribute when present and of kind `want`; nullptr when absent.
Result<const tf::AttrValue*> Get(const tf::NodeDef& n, const std::string& name, tf::AttrValue::ValueCase want,
                                 bool has_default) {
  const tf::AttrValue* v = FindAttr(n, name);
  if (!v) {
    if (has_default) return static_cast<const tf::AttrValue*>(nullptr);
    return NodeError(n, "needs attribute '" + name + "'");
  }
  if (v->value_case() != want)
    return NodeError(n, "attribute '" + name + "' is a " + KindName(v->value_case()) + ", expected a " +
                            KindName(want));
  return v;
}

}  // namespace

std::string NodeLabel(const tf::NodeDef& n) { return n.name() + " (" + n.op() + ")"; }

Status NodeError(const tf::NodeDef& n, const std::string& msg) {
  return InvalidArgument("node " + NodeLabel(n) + ": " + msg);
}

Status NodeUnsupported(const tf::NodeDef& n, const std::string& msg) {
  return Unsupported("node " + NodeLabel(n) + ": " + msg);
}

const tf::AttrValue* FindAttr(const tf::NodeDef& n, const std::string& name) {
  auto it = n.attr().find(name);
  return it == n.attr().end() ? nullptr : &it->second;
}

Result<int64_t> AttrInt(const tf::NodeDef& n, const std::string& name, std::optional<int64_t> def) {
  GE_ASSIGN_OR_RETURN(const tf::AttrValue* v, Get(n, name, tf::AttrValue::kI, def.has_value()));
  return v ? v->i() : *def;
}

Result<float> AttrFloat(const tf::NodeDef& n, const std::string& name, std::optional<float> def) {
  GE_ASSIGN_OR_RETURN(const tf::AttrValue* v, Get(n, name, tf::AttrValue::kF, def.has_value()));
  return v ? v->f() : *def;
}

Result<bool> AttrBool(const tf::NodeDef& n, const std::string& name, std::optional<bool> def) {
  GE_ASSIGN_OR_RETURN(const tf::AttrValue* v, Get(n, name, tf::AttrValue::kB, def.has_value()));
  return v ? v->b() : *def;
}

Result<std::string> AttrString(const tf::NodeDef& n, const std::string& name, std::optional<std::string> def) {
  GE_ASSIGN_OR_RETURN(const tf::AttrValue* v, Get(n, name, tf::AttrValue::kS, def.has_value()));
  return v ? v->s() : *def;
}

Result<std::vector<int64_t>> AttrInts(const tf::NodeDef& n, const std::string& name,
                                      std::optional<std::vector<int64_t>> def) {
  const tf::AttrValue* raw = FindAttr(n, name);
  // An empty list serialises as an AttrValue with an empty ListValue, or with nothing set at all.
  if (raw && raw->value_case() == tf::AttrValue::VALUE_NOT_SET) return std::vector<int64_t>{};
  GE_ASSIGN_OR_RETURN(const tf::AttrValue* v, Get(n, name, tf::AttrValue::kList, def.has_value()));
  if (!v) return *def;
  return std::vector<int64_t>(v->list().i().begin(), v->list().i().end());
}

Result<int> AttrType(const tf::NodeDef& n, const std::string& name, std::optional<int> def) {
  GE_ASSIGN_OR_RETURN(const tf::AttrValue* v, Get(n, name, tf::AttrValue::kType, def.has_value()));
  return v ? static_cast<int>(v->type()) : *def;
}

}  // namespace ge::tf_parser
