// Tensor descriptions: element type, shape and format of one anchor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge_base/dtype.h"

namespace ge {

// Values are stored in .om files: append, never renumber.
// Formats the compiler's layout stage chooses; dims stay logical NCHW:
// kNCHW8c / kNCHW16c block the channels by 8 / 16 ([N][C/b][H][W][b], GE's
// NC1HWC0), kNCHWChannelsLast stores them innermost ([N][H][W][C]).
// kBlocked (3) is reserved: no pass writes it.
enum class Format : int32_t {
  kND = 0,
  kNCHW = 1,
  kNHWC = 2,
  kBlocked = 3,
  kNCHW8c = 4,
  kNCHW16c = 5,
  kNCHWChannelsLast = 6,
};
constexpr Format kLastFormat = Format::kNCHWChannelsLast;
const char* FormatName(Format f);
// The layout of a format as hal::TensorInfo::channel_block: 8, 16, -1
// (channels last), 0 for plain formats.
int32_t ChannelBlockOf(Format f);
// The inverse of ChannelBlockOf for the layout-stage formats; kND otherwise.
Format ChannelBlockedFormat(int32_t block);

constexpr int64_t kUnknownDim = -1;   // one dimension unknown
constexpr int64_t kUnknownRank = -2;  // dims == {-2}: rank unknown
// The largest dim a .om holds (its reader refuses more); the compiler's
// memory check refuses it too, even in a tensor of zero elements.
constexpr int64_t kMaxDim = int64_t{1} << 40;

struct TensorDesc {
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;  // {} is a scalar; {-2} unknown rank
  Format format = Format::kND;

  TensorDesc() = default;
  TensorDesc(DataType t, std::vector<int64_t> d, Format f = Format::kND) : dtype(t), dims(std::move(d)), format(f) {}

  bool unknown_rank() const { return dims.size() == 1 && dims[0] == kUnknownRank; }
  bool is_static() const;  // every dim known and >= 0
  // True when `concrete` (every dim >= 0) is a shape this desc allows: any
  // for an unknown rank, else the same rank with the known dims equal.
  bool Admits(const std::vector<int64_t>& concrete) const;
  int64_t rank() const { return unknown_rank() ? -1 : static_cast<int64_t>(dims.size()); }
  int64_t NumElements() const { return is_static() ? ge::NumElements(dims) : -1; }
  // Bytes of a static tensor (ge_base's TensorBytes); -1 when it is not
  // static or too large.
  int64_t Bytes() const;
  // Static, but its element count or bytes do not fit in int64
  // (f32[4294967296,4294967296]) or pass kMaxTensorBytes: not dynamic, impossible.
  bool too_large() const { return is_static() && Bytes() < 0; }
  // "f32[1,3,224,224]", "i64[?,128]", "f32[*]"
  std::string ToString() const;
  bool operator==(const TensorDesc& o) const { return dtype == o.dtype && dims == o.dims && format == o.format; }
  bool operator!=(const TensorDesc& o) const { return !(*this == o); }
};

std::string DimsToString(const std::vector<int64_t>& dims);

// What two descs of one value agree on (a branch's and the other's, a loop
// value before and after an iteration): a's dtype and format, the dims
// equal in both, unknown where they differ; unknown rank when the ranks do.
TensorDesc CommonDesc(const TensorDesc& a, const TensorDesc& b);

}  // namespace ge
