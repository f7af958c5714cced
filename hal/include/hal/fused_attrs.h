// The attributes the compiler's fusion passes set on a node to tell its
// kernel what was fused into it, and their values. Passes and kernels name
// them only through this header, so a misspelt name fails to compile rather
// than silently dropping a post-op; a kernel that takes them lists every
// attribute it reads (KnownAttrs) and refuses any other. The values travel
// (and the .om stores them) as the strings below, as before.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ge_base/status.h"
#include "hal/kernel.h"

namespace ge::hal {

// string, ActivationName: act(result) ends the kernel.
inline constexpr const char* kAttrActivation = "activation";
// float: HardSigmoid's alpha and beta, clip(alpha x + beta, 0, 1).
inline constexpr const char* kAttrActivationAlpha = "activation_alpha";
inline constexpr const char* kAttrActivationBeta = "activation_beta";
// float: Clip's bounds.
inline constexpr const char* kAttrActivationMin = "activation_min";
inline constexpr const char* kAttrActivationMax = "activation_max";
// int 1: Conv adds input 3 (a residual) to its result, before the activation.
inline constexpr const char* kAttrFusedSum = "fused_sum";
// string, ConvAlgorithmName: the algorithm a Conv asks oneDNN for.
inline constexpr const char* kAttrConvAlgorithm = "conv_algorithm";

// The activation fused after a kernel's result; each stands for the ONNX op
// of the same name (Gelu: the erf form only).
enum class FusedActivation { kNone, kRelu, kClip, kSigmoid, kHardSwish, kSwish, kHardSigmoid, kGelu };
// The ONNX op type ("Relu", "Clip", ...); "" for kNone (no attribute).
const char* ActivationName(FusedActivation a);
// The activation an op type or attribute value names ("" is kNone); nullopt
// for any other string.
std::optional<FusedActivation> ActivationFromName(std::string_view name);

enum class ConvAlgorithm { kDirect, kWinograd };
const char* ConvAlgorithmName(ConvAlgorithm a);  // "direct", "winograd"
std::optional<ConvAlgorithm> ConvAlgorithmFromName(std::string_view name);

// The attributes a kernel reads: its ONNX ones and the fused ones above.
// Check runs in the kernel's Supports (which Create and Pack run first), so
// it costs nothing per run.
class KnownAttrs {
 public:
  // with_activation adds kAttrActivation and its parameters.
  KnownAttrs(std::initializer_list<const char*> names, bool with_activation);
  // InvalidArgument "unknown attribute 'activaton' (the Conv kernel reads
  // ...)" for an attribute of spec not listed; names starting with '_' are
  // the framework's (_opset, _precision) and pass.
  Status Check(const KernelSpec& spec) const;

 private:
  std::vector<std::string> names_;  // sorted
};

}  // namespace ge::hal
