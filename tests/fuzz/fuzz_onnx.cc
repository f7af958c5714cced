// Fuzz target: ONNX bytes → ParseOnnxBytes (the onnx library's checker,
// version converter and shape inference, then our graph builder) → Compile
// (shape inference, support checks, the passes, planning) → the .om round trip.
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "ge_parsers/onnx_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  auto graph = ge::ParseOnnxBytes(std::string(reinterpret_cast<const char*>(data), size), {}, "fuzz.onnx");
  if (!graph.ok()) return 0;
  ge::fuzz::CompileAndRoundTrip(std::move(graph).value(), "onnx");
  return 0;
}
