// Fuzz target: .om bytes → ParseOm → LoadModel in v2 and sink mode, so every
// load-time check (container, model definition, plan and task checks, the
// semantic verifier of the load path) sees untrusted bytes. A model that
// loads and is small runs once on zero inputs.
//
// Inputs are .om files. Random mutations almost never keep the CRCs right, so
// after the bytes as given (which test the checksums themselves) a copy with
// the file size and every checksum recomputed is parsed too: that is how
// mutations reach the section table, the protobuf and the plan behind them.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "ge/om.h"
#include "ge/runtime.h"
#include "om_layout.h"

namespace {

// Bounds of a model worth executing: loading is the target, running is a
// bonus that must not turn the fuzzer into a benchmark.
constexpr int64_t kMaxRunIoBytes = 1 << 20;
constexpr size_t kMaxRunDeviceBytes = 16 << 20;
constexpr size_t kMaxRunNodes = 64;

std::string WithChecksumsFixed(const uint8_t* data, size_t size) {
  std::string b(reinterpret_cast<const char*>(data), size);
  if (size < sizeof(ge::om::Header)) return b;
  ge::om::Header h;
  std::memcpy(&h, b.data(), sizeof(h));
  h.file_size = size;
  const uint64_t table_bytes = uint64_t{h.section_count} * ge::om::kSectionEntrySize;
  if (h.section_table_offset == ge::om::kHeaderSize && h.section_count <= ge::om::kMaxSections &&
      table_bytes <= size - ge::om::kHeaderSize) {
    for (uint32_t i = 0; i < h.section_count; ++i) {
      ge::om::SectionEntry e;
      char* at = b.data() + ge::om::kHeaderSize + i * ge::om::kSectionEntrySize;
      std::memcpy(&e, at, sizeof(e));
      if (e.offset <= size && e.size <= size - e.offset) e.crc = ge::Crc32(b.data() + e.offset, e.size);
      std::memcpy(at, &e, sizeof(e));
    }
    h.table_crc = ge::Crc32(b.data() + ge::om::kHeaderSize, table_bytes);
  }
  h.header_crc = 0;
  h.header_crc = ge::Crc32(&h, sizeof(h));
  std::memcpy(b.data(), &h, sizeof(h));
  return b;
}

struct AlignedBuffer {
  explicit AlignedBuffer(size_t n) : size(n), data(std::aligned_alloc(64, (n + 63) / 64 * 64 + 64)) {
    std::memset(data, 0, (n + 63) / 64 * 64 + 64);
  }
  ~AlignedBuffer() { std::free(data); }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  size_t size;
  void* data;
};

bool SmallEnoughToRun(const ge::Model& model, const ge::LoadedModel& loaded) {
  if (model.graph && model.graph->num_nodes() > kMaxRunNodes) return false;
  if (loaded.device_bytes() > kMaxRunDeviceBytes) return false;
  int64_t io = 0;
  for (const auto* list : {&loaded.inputs(), &loaded.outputs()})
    for (const ge::IoDesc& d : *list) {
      const int64_t b = d.desc.Bytes();
      if (b < 0) return false;  // dynamic shapes: nothing to size the buffers by
      io += b;
      if (io > kMaxRunIoBytes) return false;
    }
  return true;
}

void RunOnce(ge::LoadedModel& loaded) {
  std::vector<std::unique_ptr<AlignedBuffer>> buffers;
  std::vector<const void*> in;
  std::vector<void*> out;
  for (const ge::IoDesc& d : loaded.inputs()) {
    buffers.push_back(std::make_unique<AlignedBuffer>(static_cast<size_t>(d.desc.Bytes())));
    in.push_back(buffers.back()->data);
  }
  for (const ge::IoDesc& d : loaded.outputs()) {
    buffers.push_back(std::make_unique<AlignedBuffer>(static_cast<size_t>(d.desc.Bytes())));
    out.push_back(buffers.back()->data);
  }
  (void)loaded.Execute(in, out);
}

void LoadAndRun(const ge::Model& model) {
  for (ge::RunMode mode : {ge::RunMode::kV2, ge::RunMode::kSink}) {
    auto loaded = ge::LoadModel(model, ge::LoadOptions{mode, ""});
    if (!loaded.ok()) continue;
    if (SmallEnoughToRun(model, **loaded)) RunOnce(**loaded);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  auto om = ge::ParseOm(data, size, "fuzz.om");
  if (om.ok()) {
    LoadAndRun(om->model);
    return 0;
  }
  const std::string fixed = WithChecksumsFixed(data, size);
  if (std::memcmp(fixed.data(), data, size) == 0) return 0;  // same bytes, same answer
  auto fixed_om = ge::ParseOm(fixed.data(), fixed.size(), "fuzz.om");
  if (fixed_om.ok()) LoadAndRun(fixed_om->model);
  return 0;
}
