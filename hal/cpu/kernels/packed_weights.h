// Weights packed ahead of time (KernelRegistry::Pack): the compiler asks a
// kernel to reorder its constant weights into the layout oneDNN picked for
// this CPU, ge-atc stores them in the .om, and at load the kernel uses them
// in place when its own primitive asks for exactly that layout again.
//
// The format string names the oneDNN version, the instruction set it runs
// with and the memory descriptor (a hash of every field of the blocked
// layout), e.g. "dnnl2.6.3/avx512_core_bf16:md2.1f0c…", so a .om compiled on
// another CPU or with another oneDNN is recognised as different and repacked,
// never misread.
#pragma once

#include <optional>
#include <string>

#include "kernels/dnnl_context.h"

namespace ge::hal::dnnl_util {

// The format of a blocked or Winograd descriptor; nullopt for layouts it
// cannot name (RNN-packed), which are then never packed ahead.
std::optional<std::string> PackedFormat(const dnnl::memory::desc& md);

// The weights memory a kernel whose primitive wants `want` uses: the
// ahead-packed bytes of input `input` in place when their format is exactly
// `want`'s; else `src` (the plain constant) reordered into `want` once,
// shared between kernels (SharedPackedConstant). A mismatch is logged once
// per process as a warning: the .om was packed for another machine.
Result<std::shared_ptr<const dnnl::memory>> PackedWeights(const KernelSpec& spec, size_t input,
                                                          const dnnl::stream& s, const dnnl::memory& src,
                                                          const dnnl::memory::desc& want);

// Pack's half: `src` (plain, bound to the constant) reordered into `want`.
// Empty when `want` is src's own layout or has no format (nothing to gain).
Result<std::vector<PackedConstant>> PackAhead(size_t input, const dnnl::memory& src, const dnnl::memory::desc& want);

}  // namespace ge::hal::dnnl_util
