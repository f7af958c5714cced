#include "ge/ir/tensor_desc.h"

#include "ge_base/checked_math.h"
#include "ge_base/tensor_bytes.h"

namespace ge {

const char* FormatName(Format f) {
  switch (f) {
    case Format::kND: return "ND";
    case Format::kNCHW: return "NCHW";
    case Format::kNHWC: return "NHWC";
    case Format::kBlocked: return "blocked";
    case Format::kNCHW8c: return "NCHW8c";
    case Format::kNCHW16c: return "NCHW16c";
    case Format::kNCHWChannelsLast: return "NCHW-nhwc";
  }
  return "invalid";
}

int32_t ChannelBlockOf(Format f) {
  switch (f) {
    case Format::kNCHW8c: return 8;
    case Format::kNCHW16c: return 16;
    case Format::kNCHWChannelsLast: return -1;  // hal::kChannelsLast
    default: return 0;
  }
}

Format ChannelBlockedFormat(int32_t block) {
  switch (block) {
    case 8: return Format::kNCHW8c;
    case 16: return Format::kNCHW16c;
    case -1: return Format::kNCHWChannelsLast;
    default: return Format::kND;
  }
}

bool TensorDesc::Admits(const std::vector<int64_t>& concrete) const {
  for (int64_t d : concrete)
    if (d < 0) return false;
  if (unknown_rank()) return true;
  if (concrete.size() != dims.size()) return false;
  for (size_t k = 0; k < dims.size(); ++k)
    if (dims[k] >= 0 && dims[k] != concrete[k]) return false;
  return true;
}

bool TensorDesc::is_static() const {
  if (unknown_rank()) return false;
  for (int64_t d : dims)
    if (d < 0) return false;
  return true;
}

int64_t TensorDesc::Bytes() const {
  if (!is_static()) return -1;
  Result<size_t> b = TensorBytes(dims, dtype);  // the runtimes' check: above its cap is too large here too
  return b.ok() ? static_cast<int64_t>(*b) : -1;
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  if (dims.size() == 1 && dims[0] == kUnknownRank) return "[*]";
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
  }
  return s + "]";
}

std::string TensorDesc::ToString() const {
  std::string s = std::string(DataTypeName(dtype)) + DimsToString(dims);
  if (format != Format::kND) s += std::string("{") + FormatName(format) + "}";
  return s;
}

TensorDesc CommonDesc(const TensorDesc& a, const TensorDesc& b) {
  if (a.unknown_rank() || b.unknown_rank() || a.dims.size() != b.dims.size()) return TensorDesc(a.dtype, {kUnknownRank});
  TensorDesc d = a;
  for (size_t k = 0; k < d.dims.size(); ++k)
    if (a.dims[k] != b.dims[k]) d.dims[k] = kUnknownDim;
  return d;
}

}  // namespace ge
