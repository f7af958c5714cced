#include <cstdio>
#include <cstring>
#include <fstream>
#include <string_view>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "ge_base/file_io.h"
#include "ge/om.h"
#include "model_codec.h"
#include "om_layout.h"

namespace ge {
namespace {

size_t AlignUp(size_t v) { return (v + om::kSectionAlignment - 1) / om::kSectionAlignment * om::kSectionAlignment; }

// Deterministic serialisation: the same model gives the same bytes.
std::string SerializeDeterministic(const google::protobuf::MessageLite& msg) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream sos(&out);
    google::protobuf::io::CodedOutputStream cos(&sos);
    cos.SetSerializationDeterministic(true);
    msg.SerializeToCodedStream(&cos);
  }
  return out;
}

}  // namespace

namespace {

// A .om as the pieces it is written from, in file order: header, section
// table and padding, then each section with the padding before the next.
// Writing the pieces instead of one joined string saves a copy of the
// weights (hundreds of megabytes for a transformer with packed weights).
struct OmPieces {
  std::string head;  // header + table + padding up to the first section
  std::string model_def;
  std::string pad;  // zeros between model_def and weights
  std::string weights;
  std::vector<std::string_view> Views() const { return {head, model_def, pad, weights}; }
};

Result<OmPieces> LayOut(const Model& model) {
  OmPieces p;
  om::ModelDef def;
  GE_RETURN_IF_ERROR(om::EncodeModel(model, &def, &p.weights));
  p.model_def = SerializeDeterministic(def);

  struct Section {
    uint32_t type;
    const std::string* bytes;
  };
  const Section sections[] = {{om::kSectionModelDef, &p.model_def}, {om::kSectionWeights, &p.weights}};
  const uint32_t count = sizeof(sections) / sizeof(sections[0]);

  std::vector<om::SectionEntry> table(count);
  size_t offset = AlignUp(om::kHeaderSize + count * om::kSectionEntrySize);
  for (uint32_t i = 0; i < count; ++i) {
    std::memset(&table[i], 0, sizeof(table[i]));
    table[i].type = sections[i].type;
    table[i].offset = offset;
    table[i].size = sections[i].bytes->size();
    table[i].crc = Crc32(sections[i].bytes->data(), sections[i].bytes->size());
    offset = AlignUp(offset + sections[i].bytes->size());
  }
  const size_t file_size = table.back().offset + table.back().size;

  om::Header h;
  std::memset(&h, 0, sizeof(h));
  std::memcpy(h.magic, om::kMagic, sizeof(h.magic));
  h.version_major = kOmVersionMajor;
  h.version_minor = kOmVersionMinor;
  h.header_size = om::kHeaderSize;
  h.section_count = count;
  h.section_table_offset = om::kHeaderSize;
  h.file_size = file_size;
  h.table_crc = Crc32(table.data(), count * om::kSectionEntrySize);
  h.header_crc = Crc32(&h, sizeof(h));

  p.head.assign(table[0].offset, '\0');
  std::memcpy(p.head.data(), &h, sizeof(h));
  std::memcpy(p.head.data() + om::kHeaderSize, table.data(), count * om::kSectionEntrySize);
  p.pad.assign(table[1].offset - (table[0].offset + table[0].size), '\0');
  return p;
}

}  // namespace

Result<std::string> SerializeOm(const Model& model) {
  GE_ASSIGN_OR_RETURN(OmPieces p, LayOut(model));
  std::string out;
  size_t size = 0;
  for (std::string_view v : p.Views()) size += v.size();
  out.reserve(size);
  for (std::string_view v : p.Views()) out.append(v);
  return out;
}

Status WriteOmFile(const Model& model, const std::string& path) {
  GE_ASSIGN_OR_RETURN(OmPieces p, LayOut(model));
  return WriteFileAtomically(path, p.Views());
}

}  // namespace ge
