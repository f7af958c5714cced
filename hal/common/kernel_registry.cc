#include <type_traits>

#include "hal/kernel.h"

namespace ge::hal {

int64_t Attrs::GetInt(const std::string& name, int64_t def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<int64_t>(&it->second)) return *v;
  if (auto* v = std::get_if<double>(&it->second)) return static_cast<int64_t>(*v);
  return def;
}

float Attrs::GetFloat(const std::string& name, float def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<double>(&it->second)) return static_cast<float>(*v);
  if (auto* v = std::get_if<int64_t>(&it->second)) return static_cast<float>(*v);
  return def;
}

std::string Attrs::GetString(const std::string& name, const std::string& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::string>(&it->second)) return *v;
  return def;
}

std::vector<int64_t> Attrs::GetInts(const std::string& name, const std::vector<int64_t>& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
  return def;
}

std::vector<float> Attrs::GetFloats(const std::string& name, const std::vector<float>& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::vector<double>>(&it->second)) return std::vector<float>(v->begin(), v->end());
  return def;
}

void KernelRegistry::Register(const std::string& op, KernelSupportFn support, KernelCreateFn create) {
  entries_[op] = Entry{std::move(support), std::move(create)};
}

Status KernelRegistry::Supports(const KernelSpec& spec) const {
  auto it = entries_.find(spec.op);
  if (it == entries_.end()) return Unsupported("no kernel for op type " + spec.op);
  if (it->second.support) return it->second.support(spec);
  return Status::Ok();
}

Result<std::unique_ptr<Kernel>> KernelRegistry::Create(const KernelSpec& spec) const {
  auto it = entries_.find(spec.op);
  if (it == entries_.end()) return Unsupported("no kernel for op type " + spec.op);
  if (it->second.support) GE_RETURN_IF_ERROR(it->second.support(spec));
  return it->second.create(spec);
}

std::vector<std::string> KernelRegistry::Ops() const {
  std::vector<std::string> ops;
  for (const auto& [k, v] : entries_) ops.push_back(k);
  return ops;
}

}  // namespace ge::hal
