// The .om container (docs/om-format.md): a 64-byte header with magic and
// version, a section table (type, offset, size, CRC-32 per section), the model
// definition as protobuf (schemas/om.proto) and the weights, 64-byte aligned.
// Every offset and length is checked on load; a bad file is an error, never a
// crash. The same model gives the same bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ge/model.h"

namespace ge {

constexpr uint32_t kOmVersionMajor = 1;
constexpr uint32_t kOmVersionMinor = 0;

// Serialises the model to the .om bytes.
Result<std::string> SerializeOm(const Model& model);
// Writes atomically: PATH.tmp, then rename, so a failure leaves no partial file.
Status WriteOmFile(const Model& model, const std::string& path);

// A loaded .om. Const tensors hold their bytes (shared between copies of
// the graph, so forks of one model share weights); from a mapped file they
// are views into the mapping, and model.weights_image is its weights section.
struct LoadedOm {
  Model model;
  uint32_t version_major = 0;
  uint32_t version_minor = 0;
  uint64_t weights_size = 0;
};

// `origin` names the bytes in error messages. The constants are copied out
// of `data`, which may go away after the call.
Result<LoadedOm> ParseOm(const void* data, size_t size, const std::string& origin);
// The same, without copying: constants are views into `data`, which `owner`
// keeps alive as long as any of them.
Result<LoadedOm> ParseOm(std::shared_ptr<const void> owner, const void* data, size_t size, const std::string& origin);
// Maps the file (ge_base/mapped_file.h) and parses it without copying.
Result<LoadedOm> ReadOmFile(const std::string& path);

// The header, section table and model definition as JSON (ge-atc --mode 1).
Result<std::string> OmToJson(const std::string& path);

// CRC-32 (IEEE, as zlib's crc32) of a byte range.
uint32_t Crc32(const void* data, size_t size, uint32_t crc = 0);

}  // namespace ge
