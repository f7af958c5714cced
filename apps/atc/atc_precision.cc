#include "atc/atc_precision.h"

#include <map>
#include <utility>

namespace ge::atc {
namespace {

enum class Kind { kFp32, kMixBf16, kFp16 };

// ATC's values, v1 and v2 spellings. allow_fp32_to_bf16/fp16 lower only ops
// without float32 support: every CPU kernel has it, so nothing is lowered.
const std::map<std::string, Kind>& Modes() {
  static const std::map<std::string, Kind> m = {
      {"force_fp32", Kind::kFp32},          {"must_keep_origin_dtype", Kind::kFp32},
      {"allow_fp32_to_bf16", Kind::kFp32},  {"allow_fp32_to_fp16", Kind::kFp32},
      {"cube_fp16in_fp32out", Kind::kFp32}, {"origin", Kind::kFp32},
      {"fp32", Kind::kFp32},                {"allow_mix_precision", Kind::kMixBf16},
      {"allow_mix_precision_bf16", Kind::kMixBf16},
      {"mixed_bfloat16", Kind::kMixBf16},   {"force_fp16", Kind::kFp16},
      {"allow_mix_precision_fp16", Kind::kFp16},
      {"mixed_float16", Kind::kFp16},       {"fp16", Kind::kFp16},
      {"cube_hif8", Kind::kFp16},           {"mixed_hif8", Kind::kFp16},
  };
  return m;
}

Result<Kind> KindOf(const std::string& flag, const std::string& value) {
  auto it = Modes().find(value);
  if (it != Modes().end()) return it->second;
  std::string known;
  for (const auto& [name, kind] : Modes()) known += (known.empty() ? "" : ", ") + name;
  return InvalidArgument(flag + ": unknown precision mode '" + value + "' (" + known + ")");
}

}  // namespace

Result<CompileOptions::Precision> ParsePrecision(const std::string& mode, const std::string& mode_v2,
                                                 const std::string& keep_dtype, const std::string& modify_mixlist,
                                                 const std::function<void(const std::string&)>& warn) {
  if (!mode.empty() && !mode_v2.empty())
    return InvalidArgument("--precision_mode and --precision_mode_v2 are exclusive (atc's rule)");
  const std::string flag = mode_v2.empty() ? "--precision_mode" : "--precision_mode_v2";
  const std::string value = mode_v2.empty() ? mode : mode_v2;
  CompileOptions::Precision p;
  Kind kind = Kind::kFp32;
  if (!value.empty()) {
    GE_ASSIGN_OR_RETURN(kind, KindOf(flag, value));
  }
  if (kind == Kind::kFp16)
    warn(flag + " " + value + ": the CPU has no float16 compute; every operator computes in float32");
  if (kind == Kind::kMixBf16) p.mode = CompileOptions::Precision::kMixBf16;
  // The files are read (and checked) in every mode; only a mixed one uses them.
  if (!keep_dtype.empty()) GE_RETURN_IF_ERROR(ReadKeepDtype(keep_dtype, &p).Annotated("--keep_dtype"));
  if (!modify_mixlist.empty()) GE_RETURN_IF_ERROR(ReadMixList(modify_mixlist, &p).Annotated("--modify_mixlist"));
  if (p.mode != CompileOptions::Precision::kMixBf16)
    for (const auto& [name, given] : {std::pair<const char*, bool>{"--keep_dtype", !keep_dtype.empty()},
                                      {"--modify_mixlist", !modify_mixlist.empty()}})
      if (given) warn(std::string(name) + " has no effect without a mixed precision mode: everything is float32");
  return p;
}

}  // namespace ge::atc
