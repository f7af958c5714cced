// Fuzz target: --fusion_switch_file bytes → ReadFusionSwitchFile (JSON read
// with a nesting limit, then every key checked against the pass list). What it
// accepts names fusion passes only.
#include <cstdint>
#include <string>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  const std::string path = ge::fuzz::AsFile(data, size, ".fusion.json");
  auto off = ge::ReadFusionSwitchFile(path);
  if (!off.ok()) return 0;
  const std::vector<ge::PassInfo> passes = ge::ListPasses();
  for (const std::string& name : *off) {
    bool fusion = false;
    for (const ge::PassInfo& p : passes) fusion |= p.name == name && p.fusion;
    if (!fusion) ge::fuzz::Fail("ReadFusionSwitchFile switched off '" + name + "', which is not a fusion pass");
  }
  return 0;
}
