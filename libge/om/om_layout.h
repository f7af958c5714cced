// The byte layout of a .om file. All integers little-endian.
//
//   [0,64)    header
//   [64, ...) section table: section_count entries of 32 bytes
//   then      sections, each starting on a 64-byte boundary; gaps are zero
#pragma once

#include <cstdint>

namespace ge::om {

constexpr char kMagic[8] = {'G', 'E', 'O', 'M', '\r', '\n', 0x1a, '\n'};  // catches text-mode mangling
constexpr uint32_t kHeaderSize = 64;
constexpr uint32_t kSectionEntrySize = 32;
constexpr uint32_t kSectionAlignment = 64;
constexpr uint32_t kMaxSections = 64;

enum SectionType : uint32_t {
  kSectionModelDef = 1,  // ge.om.ModelDef protobuf
  kSectionWeights = 2,   // constant bytes, each tensor 64-byte aligned
};

const char* SectionTypeName(uint32_t type);

#pragma pack(push, 1)
struct Header {
  char magic[8];
  uint32_t version_major;
  uint32_t version_minor;
  uint32_t header_size;
  uint32_t section_count;
  uint64_t section_table_offset;
  uint64_t file_size;
  uint32_t table_crc;   // CRC-32 of the section table
  uint32_t header_crc;  // CRC-32 of this header with header_crc = 0
  uint8_t reserved[16];
};
struct SectionEntry {
  uint32_t type;
  uint32_t flags;
  uint64_t offset;
  uint64_t size;
  uint32_t crc;
  uint32_t reserved;
};
#pragma pack(pop)
static_assert(sizeof(Header) == kHeaderSize);
static_assert(sizeof(SectionEntry) == kSectionEntrySize);

}  // namespace ge::om
