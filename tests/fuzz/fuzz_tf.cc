// Fuzz target: TensorFlow frozen GraphDef bytes → the pre-check (CheckTfBytes,
// ge-atc --mode 3) and ParseTfBytes → Compile → the .om round trip.
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "ge_parsers/tf_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  (void)ge::CheckTfBytes(bytes, {}, "fuzz.pb");
  auto graph = ge::ParseTfBytes(bytes, {}, "fuzz.pb");
  if (!graph.ok()) return 0;
  ge::fuzz::CompileAndRoundTrip(std::move(graph).value(), "tensorflow");
  return 0;
}
