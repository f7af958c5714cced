// Fuzz target: .npy bytes → ParseNpy (ge-run's --input and --compare files).
// An array it accepts must hold exactly the bytes its description says.
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "ge/tools/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  auto a = ge::ParseNpy(std::string(reinterpret_cast<const char*>(data), size), "fuzz.npy");
  if (!a.ok()) return 0;
  if (a->desc.Bytes() < 0 || static_cast<uint64_t>(a->desc.Bytes()) != a->bytes.size())
    ge::fuzz::Fail("ParseNpy accepted " + a->desc.ToString() + " with " + std::to_string(a->bytes.size()) + " bytes");
  return 0;
}
