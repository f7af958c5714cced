// Loading a .om: every field is untrusted. The checks run from the outside in
// (size, magic, version, header CRC, table, sections, model) so the first
// failure names the outermost thing that is wrong.
#include <cstring>
#include <functional>
#include <set>

#include "ge/om.h"
#include "ge_base/mapped_file.h"
#include "ge_proto/protobuf_log.h"
#include "model_codec.h"
#include "om_layout.h"

namespace ge {
namespace om {

const char* SectionTypeName(uint32_t type) {
  switch (type) {
    case kSectionModelDef: return "model_def";
    case kSectionWeights: return "weights";
  }
  return "unknown";
}

}  // namespace om

namespace {

Status Bad(const std::string& origin, const std::string& msg) { return Corrupt(origin + ": not a valid .om file: " + msg); }

bool AllZero(const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (p[i]) return false;
  return true;
}

// The CRC of a section: over the bytes in memory, or for a mapped file by
// reading the file (ReadOmFile), so that checking the weights does not make
// every page of them resident.
using SectionCrc = std::function<Result<uint32_t>(uint64_t offset, uint64_t size)>;

Result<LoadedOm> Parse(std::shared_ptr<const void> owner, const void* data, size_t size, const std::string& origin,
                       const SectionCrc& section_crc);

}  // namespace

Result<LoadedOm> ParseOm(const void* data, size_t size, const std::string& origin) {
  return ParseOm(nullptr, data, size, origin);
}

Result<LoadedOm> ParseOm(std::shared_ptr<const void> owner, const void* data, size_t size, const std::string& origin) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  return Parse(std::move(owner), data, size, origin,
               [bytes](uint64_t offset, uint64_t n) -> Result<uint32_t> { return Crc32(bytes + offset, n); });
}

namespace {

Result<LoadedOm> Parse(std::shared_ptr<const void> owner, const void* data, size_t size, const std::string& origin,
                       const SectionCrc& section_crc) {
  RouteProtobufLogsToSpdlog();  // stderr is for the one error line
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (size < om::kHeaderSize) return Bad(origin, "file of " + std::to_string(size) + " bytes is shorter than the header");
  om::Header h;
  std::memcpy(&h, bytes, sizeof(h));
  if (std::memcmp(h.magic, om::kMagic, sizeof(h.magic)) != 0) return Bad(origin, "bad magic");
  if (h.version_major != kOmVersionMajor)
    return Unsupported(origin + ": .om version " + std::to_string(h.version_major) + "." + std::to_string(h.version_minor) +
                       " is not supported (this ge reads " + std::to_string(kOmVersionMajor) + ".x)");
  const uint32_t header_crc = h.header_crc;
  h.header_crc = 0;
  if (Crc32(&h, sizeof(h)) != header_crc) return Bad(origin, "header checksum mismatch");
  if (h.header_size != om::kHeaderSize) return Bad(origin, "header size " + std::to_string(h.header_size));
  if (h.file_size != size)
    return Bad(origin, "header says " + std::to_string(h.file_size) + " bytes, file has " + std::to_string(size) +
                           " (truncated or padded)");
  if (h.section_count == 0 || h.section_count > om::kMaxSections)
    return Bad(origin, "section count " + std::to_string(h.section_count));
  const uint64_t table_bytes = uint64_t{h.section_count} * om::kSectionEntrySize;
  if (h.section_table_offset != om::kHeaderSize || table_bytes > size - om::kHeaderSize)
    return Bad(origin, "section table outside the file");
  if (Crc32(bytes + h.section_table_offset, table_bytes) != h.table_crc) return Bad(origin, "section table checksum mismatch");

  std::vector<om::SectionEntry> table(h.section_count);
  std::memcpy(table.data(), bytes + h.section_table_offset, table_bytes);
  const om::SectionEntry* model_def = nullptr;
  const om::SectionEntry* weights = nullptr;
  uint64_t covered = om::kHeaderSize + table_bytes;  // sections are in file order, gaps must be zero
  for (uint32_t i = 0; i < h.section_count; ++i) {
    const om::SectionEntry& s = table[i];
    const std::string name = std::string("section ") + std::to_string(i) + " (" + om::SectionTypeName(s.type) + ")";
    if (s.offset % om::kSectionAlignment != 0) return Bad(origin, name + " is not 64-byte aligned");
    if (s.offset < covered || s.offset > size || s.size > size - s.offset)
      return Bad(origin, name + " [" + std::to_string(s.offset) + ", +" + std::to_string(s.size) + ") is outside the file or overlaps");
    if (!AllZero(bytes + covered, s.offset - covered)) return Bad(origin, "non-zero padding before " + name);
    auto crc = section_crc(s.offset, s.size);
    if (!crc.ok()) return crc.status();
    if (*crc != s.crc) return Bad(origin, name + " checksum mismatch");
    covered = s.offset + s.size;
    if (s.type == om::kSectionModelDef) {
      if (model_def) return Bad(origin, "two model_def sections");
      model_def = &s;
    } else if (s.type == om::kSectionWeights) {
      if (weights) return Bad(origin, "two weights sections");
      weights = &s;
    }
    // Unknown section types from newer minor versions are skipped.
  }
  if (covered != size) return Bad(origin, "trailing bytes after the last section");
  if (!model_def) return Bad(origin, "no model_def section");
  if (!weights) return Bad(origin, "no weights section");

  om::ModelDef def;
  if (model_def->size > (uint64_t{1} << 31) - 1) return Bad(origin, "model_def section larger than 2 GiB");
  if (!def.ParseFromArray(bytes + model_def->offset, static_cast<int>(model_def->size)))
    return Bad(origin, "model_def section does not parse");
  auto model = om::DecodeModel(def, bytes + weights->offset, weights->size, owner);
  if (!model.ok()) return Bad(origin, model.status().message());
  LoadedOm out;
  out.model = std::move(model).value();
  if (owner) out.model.weights_image = {std::move(owner), bytes + weights->offset, weights->size};
  out.version_major = h.version_major;
  out.version_minor = h.version_minor;
  out.weights_size = weights->size;
  return out;
}

}  // namespace

Result<LoadedOm> ReadOmFile(const std::string& path) {
  GE_ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path));
  const uint8_t* data = file->data();
  const size_t size = file->size();
  const MappedFile* f = file.get();
  SectionCrc crc = [f](uint64_t offset, uint64_t n) -> Result<uint32_t> {
    constexpr uint64_t kSmall = uint64_t{1} << 16;  // small sections are read anyway (model_def)
    if (n < kSmall) return Crc32(f->data() + offset, n);
    uint32_t c = 0;
    GE_RETURN_IF_ERROR(f->ReadChunks(offset, n, [&c](const uint8_t* p, size_t k) { c = Crc32(p, k, c); }));
    return c;
  };
  return Parse(std::move(file), data, size, path, crc);
}

}  // namespace ge
