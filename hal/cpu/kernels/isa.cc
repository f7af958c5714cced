#include "kernels/isa.h"

namespace ge::hal {

std::vector<Isa> AvailableIsas() {
  std::vector<Isa> v = {Isa::kBaseline};
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) v.push_back(Isa::kAvx2);
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && v.back() == Isa::kAvx2)
    v.push_back(Isa::kAvx512);
  return v;
}

Isa BestIsa() {
  static const Isa best = AvailableIsas().back();
  return best;
}

const char* IsaName(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return "avx512";
    case Isa::kAvx2: return "avx2";
    case Isa::kBaseline: break;
  }
  return "x86-64";
}

}  // namespace ge::hal
