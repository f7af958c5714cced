// The x86 instruction sets the own loops are compiled for, and which of
// them this CPU runs. The build targets baseline x86-64 (machines vary:
// AVX-512, or AVX2 only), so a hot loop is compiled once per ISA with GCC's
// target attribute and the best copy is picked at run time.
#pragma once

#include <vector>

// The target attributes of the copies (a function inlined into one of
// them is vectorised for that ISA).
#define GE_TARGET_AVX512 [[gnu::target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma")]]
#define GE_TARGET_AVX2 [[gnu::target("avx2,fma")]]

namespace ge::hal {

enum class Isa { kBaseline, kAvx2, kAvx512 };
// The instruction sets this CPU runs, best last (kBaseline always).
std::vector<Isa> AvailableIsas();
Isa BestIsa();
const char* IsaName(Isa isa);

}  // namespace ge::hal
