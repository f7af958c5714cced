#include <cstdio>
#include <cstring>
#include <fstream>

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

Result<std::string> SerializeOm(const Model& model) {
  om::ModelDef def;
  std::string weights;
  GE_RETURN_IF_ERROR(om::EncodeModel(model, &def, &weights));
  const std::string model_def = SerializeDeterministic(def);

  struct Section {
    uint32_t type;
    const std::string* bytes;
  };
  const Section sections[] = {{om::kSectionModelDef, &model_def}, {om::kSectionWeights, &weights}};
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

  std::string out(file_size, '\0');
  std::memcpy(out.data(), &h, sizeof(h));
  std::memcpy(out.data() + om::kHeaderSize, table.data(), count * om::kSectionEntrySize);
  for (uint32_t i = 0; i < count; ++i)
    std::memcpy(out.data() + table[i].offset, sections[i].bytes->data(), sections[i].bytes->size());
  return out;
}

Status WriteOmFile(const Model& model, const std::string& path) {
  GE_ASSIGN_OR_RETURN(std::string bytes, SerializeOm(model));
  return WriteFileAtomically(path, bytes);
}

}  // namespace ge
