// The 14 anchor attributes of the reference (3.3.1): the memory constraints
// an input or output anchor carries, read by the layout-conflict checks.
// Derived from the op registry's MemorySemantics, the node attributes and
// where the anchor sits (root-graph Data / NetOutput).
#pragma once

#include <cstdint>
#include <string>

#include "ge/ir/graph.h"

namespace ge::analysis {

// The reference's per-anchor memory type attributes (RTS special types).
inline constexpr const char* kAttrInputMemoryType = "_input_memory_type";
inline constexpr const char* kAttrOutputMemoryType = "_output_memory_type";

enum class AnchorAttribute : uint32_t {
  kUserMemoryInput = 1u << 0,                         // root graph Data output
  kUserMemoryOutput = 1u << 1,                        // root graph NetOutput input
  kImmutableAddressOutput = 1u << 2,                  // Const / Variable output
  kUnsupportedAddressRefreshOperatorInput = 1u << 3,  // node attr _unsupported_address_refresh
  kUnsupportedAddressRefreshOperatorOutput = 1u << 4,
  kContinuousInput = 1u << 5,
  kContinuousOutput = 1u << 6,
  kNoPaddingContinuousInput = 1u << 7,
  kNoPaddingContinuousOutput = 1u << 8,
  kRtsSpecialTypeInput = 1u << 9,    // node attr _input_memory_type (non-zero: P2P ...)
  kRtsSpecialTypeOutput = 1u << 10,  // node attr _output_memory_type
  kReferenceOutput = 1u << 11,       // output is a variable's memory (ref_var_src_var_name)
  kNormalInput = 1u << 12,           // none of the above
  kNormalOutput = 1u << 13,
};
inline constexpr int kNumAnchorAttributes = 14;

using AnchorAttributes = uint32_t;  // a set: OR of AnchorAttribute bits

inline bool Has(AnchorAttributes set, AnchorAttribute a) { return (set & static_cast<uint32_t>(a)) != 0; }

// GE's spelling: "USER_MEMORY_INPUT", ...
const char* AnchorAttributeName(AnchorAttribute a);
// "CONTINUOUS_INPUT|USER_MEMORY_OUTPUT" (empty for none).
std::string AnchorAttributesString(AnchorAttributes set);

// The attributes of input `in` / output `out` of `n`. `root` says whether
// n's graph is the model's root graph (its Data/NetOutput are user memory).
AnchorAttributes InputAttributes(const Node& n, size_t in, bool root);
AnchorAttributes OutputAttributes(const Node& n, size_t out, bool root);

}  // namespace ge::analysis
