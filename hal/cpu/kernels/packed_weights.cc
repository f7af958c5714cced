#include "kernels/packed_weights.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <utility>

#include <sys/mman.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace ge::hal::dnnl_util {
namespace {

// The oneDNN version and the instruction set it runs with here: both decide
// which layout its primitives pick, so both name a packing.
std::string VersionTag() {
  const dnnl_version_t* v = dnnl_version();
  static const std::pair<dnnl::cpu_isa, const char*> kIsas[] = {
      {dnnl::cpu_isa::avx512_core_amx, "avx512_core_amx"}, {dnnl::cpu_isa::avx512_core_bf16, "avx512_core_bf16"},
      {dnnl::cpu_isa::avx512_core_vnni, "avx512_core_vnni"}, {dnnl::cpu_isa::avx512_core, "avx512_core"},
      {dnnl::cpu_isa::avx2_vnni, "avx2_vnni"},           {dnnl::cpu_isa::avx2, "avx2"},
      {dnnl::cpu_isa::avx, "avx"},                       {dnnl::cpu_isa::sse41, "sse41"}};
  const char* isa = "any";
  for (const auto& [i, name] : kIsas)
    if (HasIsa(i)) {
      isa = name;
      break;
    }
  return "dnnl" + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) + "/" +
         isa + ":";
}

// Winograd's transformed weights: the fields of its wino descriptor.
void CopyWino(const dnnl_wino_desc_t& w, dnnl_wino_desc_t* c) {
  c->wino_format = w.wino_format;
  c->r = w.r;
  c->alpha = w.alpha;
  c->ic = w.ic;
  c->oc = w.oc;
  c->ic_block = w.ic_block;
  c->oc_block = w.oc_block;
  c->ic2_block = w.ic2_block;
  c->oc2_block = w.oc2_block;
  c->adj_scale = w.adj_scale;
  c->size = w.size;
}

// Only the fields that define a blocked (or Winograd) layout, copied into a
// zeroed struct so padding and unused union members are zero: equal layouts
// give equal strings, and the .om stays byte-for-byte deterministic.
std::optional<dnnl_memory_desc_t> Canonical(const dnnl_memory_desc_t& in) {
  if (in.ndims < 0 || in.ndims > DNNL_MAX_NDIMS) return std::nullopt;
  if (in.format_kind != dnnl_blocked && in.format_kind != dnnl_format_kind_wino) return std::nullopt;
  dnnl_memory_desc_t c;
  std::memset(&c, 0, sizeof(c));
  c.ndims = in.ndims;
  c.data_type = in.data_type;
  c.offset0 = in.offset0;
  c.format_kind = in.format_kind;
  for (int i = 0; i < in.ndims; ++i) {
    c.dims[i] = in.dims[i];
    c.padded_dims[i] = in.padded_dims[i];
  }
  if (in.format_kind == dnnl_format_kind_wino) {
    CopyWino(in.format_desc.wino_desc, &c.format_desc.wino_desc);
    return c;
  }
  const dnnl_blocking_desc_t& b = in.format_desc.blocking;
  if (b.inner_nblks < 0 || b.inner_nblks > DNNL_MAX_NDIMS) return std::nullopt;
  c.format_desc.blocking.inner_nblks = b.inner_nblks;
  for (int i = 0; i < DNNL_MAX_NDIMS; ++i) {
    if (i < in.ndims) {
      c.padded_offsets[i] = in.padded_offsets[i];
      c.format_desc.blocking.strides[i] = b.strides[i];
    }
    if (i < b.inner_nblks) {
      c.format_desc.blocking.inner_blks[i] = b.inner_blks[i];
      c.format_desc.blocking.inner_idxs[i] = b.inner_idxs[i];
    }
  }
  c.extra.flags = in.extra.flags;
  c.extra.compensation_mask = in.extra.compensation_mask;
  c.extra.scale_adjust = in.extra.scale_adjust;
  c.extra.asymm_compensation_mask = in.extra.asymm_compensation_mask;
  return c;
}

std::atomic<bool> warned{false};

// Maps the pages of [p, p + n) now, at load, so the first inference does not
// take a page fault per 4 KiB of weights (the bytes lie in a mapped .om).
// MADV_POPULATE_READ maps them in one call; older kernels get one read per page.
void Prefault(const void* p, size_t n) {
  if (n == 0) return;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(p) + n;
#ifdef MADV_POPULATE_READ
  if (::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ) == 0) return;
#endif
  const uintptr_t first = reinterpret_cast<uintptr_t>(p);
  for (uintptr_t a = begin; a < end; a += page)
    (void)*reinterpret_cast<const volatile uint8_t*>(a < first ? first : a);
}

}  // namespace

std::optional<std::string> PackedFormat(const dnnl::memory::desc& md) {
  auto c = Canonical(md.data);
  if (!c) return std::nullopt;
  // FNV-1a over the descriptor: short enough to read in ge-dump; the size is
  // compared as well, and a collision between two layouts of one tensor is
  // not a practical concern at 64 bits.
  uint64_t h = 0xcbf29ce484222325ull;
  const auto* p = reinterpret_cast<const uint8_t*>(&*c);
  for (size_t i = 0; i < sizeof(*c); ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  static const std::string tag = VersionTag();
  return tag + "md" + std::to_string(c->ndims) + "." + hex;
}

Result<std::shared_ptr<const dnnl::memory>> PackedWeights(const KernelSpec& spec, size_t input,
                                                          const dnnl::stream& s, const dnnl::memory& src,
                                                          const dnnl::memory::desc& want) {
  if (const PackedInput* packed = spec.Packed(input)) {
    // The bytes are read-only (a mapped .om); oneDNN only reads weights.
    if (packed->format == PackedFormat(want) && packed->size == want.get_size()) {
      Prefault(packed->data, packed->size);
      return std::make_shared<const dnnl::memory>(want, Engine(), const_cast<void*>(packed->data));
    }
    if (!warned.exchange(true))
      spdlog::warn("node {} ({}): the .om's weights were packed for another CPU or oneDNN; packing them again at "
                   "load (compile on this machine, or with its --soc_version, to skip this)",
                   spec.name, spec.op);
  }
  return SharedPackedConstant(s, src, want);
}

Result<std::vector<PackedConstant>> PackAhead(size_t input, const dnnl::memory& src, const dnnl::memory::desc& want) {
  std::vector<PackedConstant> out;
  auto format = PackedFormat(want);
  if (!format || want == src.get_desc()) return out;
  PackedConstant c;
  c.input = input;
  c.format = *format;
  c.bytes.resize(want.get_size());
  dnnl::memory dst(want, Engine(), c.bytes.data());
  GE_RETURN_IF_ERROR(ReorderNow(NewStream(), src, dst));
  out.push_back(std::move(c));
  return out;
}

}  // namespace ge::hal::dnnl_util
