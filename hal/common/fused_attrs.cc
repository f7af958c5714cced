#include "hal/fused_attrs.h"

#include <algorithm>
#include <array>
#include <utility>

namespace ge::hal {
namespace {

constexpr std::array<std::pair<FusedActivation, const char*>, 8> kFusedActivationNames = {{
    {FusedActivation::kNone, ""},
    {FusedActivation::kRelu, "Relu"},
    {FusedActivation::kClip, "Clip"},
    {FusedActivation::kSigmoid, "Sigmoid"},
    {FusedActivation::kHardSwish, "HardSwish"},
    {FusedActivation::kSwish, "Swish"},
    {FusedActivation::kHardSigmoid, "HardSigmoid"},
    {FusedActivation::kGelu, "Gelu"},
}};

constexpr std::array<std::pair<ConvAlgorithm, const char*>, 2> kConvAlgorithmNames = {{
    {ConvAlgorithm::kDirect, "direct"},
    {ConvAlgorithm::kWinograd, "winograd"},
}};

template <typename E, size_t N>
const char* NameOfFusedValue(const std::array<std::pair<E, const char*>, N>& table, E e) {
  for (const auto& [value, name] : table)
    if (value == e) return name;
  return "?";
}

template <typename E, size_t N>
std::optional<E> FusedValueOfName(const std::array<std::pair<E, const char*>, N>& table, std::string_view s) {
  for (const auto& [value, name] : table)
    if (s == name) return value;
  return std::nullopt;
}

}  // namespace

const char* ActivationName(FusedActivation a) { return NameOfFusedValue(kFusedActivationNames, a); }

std::optional<FusedActivation> ActivationFromName(std::string_view name) {
  return FusedValueOfName(kFusedActivationNames, name);
}

const char* ConvAlgorithmName(ConvAlgorithm a) { return NameOfFusedValue(kConvAlgorithmNames, a); }

std::optional<ConvAlgorithm> ConvAlgorithmFromName(std::string_view name) {
  return FusedValueOfName(kConvAlgorithmNames, name);
}

KnownAttrs::KnownAttrs(std::initializer_list<const char*> names, bool with_activation)
    : names_(names.begin(), names.end()) {
  if (with_activation)
    names_.insert(names_.end(), {kAttrActivation, kAttrActivationAlpha, kAttrActivationBeta, kAttrActivationMin,
                                 kAttrActivationMax});
  std::sort(names_.begin(), names_.end());
}

Status KnownAttrs::Check(const KernelSpec& spec) const {
  for (const auto& [name, value] : spec.attrs.values()) {
    if (name.rfind('_', 0) == 0 || std::binary_search(names_.begin(), names_.end(), name)) continue;
    std::string known;
    for (const std::string& n : names_) known += (known.empty() ? "" : ", ") + n;
    return InvalidArgument("unknown attribute '" + name + "' (the " + spec.op + " kernel reads " + known + ")");
  }
  return Status::Ok();
}

}  // namespace ge::hal
