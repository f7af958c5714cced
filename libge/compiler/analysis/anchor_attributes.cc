#include "ge/analysis/anchor_attributes.h"

#include "ge/ops/memory_semantics.h"

namespace ge::analysis {

namespace {

constexpr AnchorAttributes Bit(AnchorAttribute a) { return static_cast<AnchorAttributes>(a); }

// Ops that cannot take a refreshed address at run time (GE marks them with
// this attribute; none of ge's CPU kernels needs it, a backend may).
constexpr const char* kAttrUnsupportedAddressRefresh = "_unsupported_address_refresh";

bool SpecialType(const Node& n, const char* attr, size_t i) {
  const std::vector<int64_t> types = n.GetInts(attr);
  return i < types.size() && types[i] != 0;
}

}  // namespace

const char* AnchorAttributeName(AnchorAttribute a) {
  switch (a) {
    case AnchorAttribute::kUserMemoryInput: return "USER_MEMORY_INPUT";
    case AnchorAttribute::kUserMemoryOutput: return "USER_MEMORY_OUTPUT";
    case AnchorAttribute::kImmutableAddressOutput: return "IMMUTABLE_ADDRESS_OUTPUT";
    case AnchorAttribute::kUnsupportedAddressRefreshOperatorInput: return "UNSUPPORTED_ADDRESS_REFRESH_OPERATOR_INPUT";
    case AnchorAttribute::kUnsupportedAddressRefreshOperatorOutput: return "UNSUPPORTED_ADDRESS_REFRESH_OPERATOR_OUTPUT";
    case AnchorAttribute::kContinuousInput: return "CONTINUOUS_INPUT";
    case AnchorAttribute::kContinuousOutput: return "CONTINUOUS_OUTPUT";
    case AnchorAttribute::kNoPaddingContinuousInput: return "NOPADDING_CONTINUOUS_INPUT";
    case AnchorAttribute::kNoPaddingContinuousOutput: return "NOPADDING_CONTINUOUS_OUTPUT";
    case AnchorAttribute::kRtsSpecialTypeInput: return "RTS_SPECIAL_TYPE_INPUT";
    case AnchorAttribute::kRtsSpecialTypeOutput: return "RTS_SPECIAL_TYPE_OUTPUT";
    case AnchorAttribute::kReferenceOutput: return "REFERENCE_OUTPUT";
    case AnchorAttribute::kNormalInput: return "NORMAL_INPUT";
    case AnchorAttribute::kNormalOutput: return "NORMAL_OUTPUT";
  }
  return "?";
}

std::string AnchorAttributesString(AnchorAttributes set) {
  std::string s;
  for (int b = 0; b < kNumAnchorAttributes; ++b)
    if (set & (1u << b)) {
      if (!s.empty()) s += '|';
      s += AnchorAttributeName(static_cast<AnchorAttribute>(1u << b));
    }
  return s;
}

AnchorAttributes InputAttributes(const Node& n, size_t in, bool root) {
  const MemorySemantics& m = SemanticsOf(n);
  AnchorAttributes a = 0;
  if (root && n.type() == op::kNetOutput) a |= Bit(AnchorAttribute::kUserMemoryOutput);
  if (n.GetBool(kAttrUnsupportedAddressRefresh, false)) a |= Bit(AnchorAttribute::kUnsupportedAddressRefreshOperatorInput);
  if (m.continuous_input) a |= Bit(AnchorAttribute::kContinuousInput);
  if (m.nopadding_continuous_input) a |= Bit(AnchorAttribute::kNoPaddingContinuousInput);
  if (SpecialType(n, kAttrInputMemoryType, in)) a |= Bit(AnchorAttribute::kRtsSpecialTypeInput);
  return a ? a : Bit(AnchorAttribute::kNormalInput);
}

AnchorAttributes OutputAttributes(const Node& n, size_t out, bool root) {
  const MemorySemantics& m = SemanticsOf(n);
  AnchorAttributes a = 0;
  if (root && n.type() == op::kData) a |= Bit(AnchorAttribute::kUserMemoryInput);
  if (n.type() == op::kConst || IsVariable(n)) a |= Bit(AnchorAttribute::kImmutableAddressOutput);
  if (n.GetBool(kAttrUnsupportedAddressRefresh, false)) a |= Bit(AnchorAttribute::kUnsupportedAddressRefreshOperatorOutput);
  if (m.continuous_output) a |= Bit(AnchorAttribute::kContinuousOutput);
  if (m.nopadding_continuous_output) a |= Bit(AnchorAttribute::kNoPaddingContinuousOutput);
  if (SpecialType(n, kAttrOutputMemoryType, out)) a |= Bit(AnchorAttribute::kRtsSpecialTypeOutput);
  if (!IsVariable(n) && ReferencedVariable(n, out)) a |= Bit(AnchorAttribute::kReferenceOutput);
  return a ? a : Bit(AnchorAttribute::kNormalOutput);
}

}  // namespace ge::analysis
