// Fuzz target: --insert_op_conf text (ATC's AIPP configuration, protobuf
// text format) → ParseAippConfig. Every config it accepts is for a distinct
// input.
#include <cstdint>
#include <set>
#include <string>

#include "fuzz_common.h"
#include "ge/aipp_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  auto configs = ge::ParseAippConfig(std::string(reinterpret_cast<const char*>(data), size), "fuzz.cfg");
  if (!configs.ok()) return 0;
  std::set<int64_t> inputs;
  for (const ge::AippConfig& c : *configs)
    if (!inputs.insert(c.related_input_rank).second)
      ge::fuzz::Fail("ParseAippConfig accepted two configs for input " + std::to_string(c.related_input_rank));
  return 0;
}
