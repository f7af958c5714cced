// Fuzz target: shape flag strings, --dymShape / --dymDims ("x:1,8;y:2,3",
// ParseInputShapes) and ge-atc's --input_shape with ranges ("x:1~8,3",
// ParseInputShapeList). What they accept has a range per dim, each with
// LO <= HI, and dims ge-run can hold in a tensor description.
#include <cstdint>
#include <string>

#include "common/app_common.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  const std::string flag(reinterpret_cast<const char*>(data), size);
  auto shapes = ge::app::ParseInputShapes(flag);
  if (shapes.ok())
    for (const auto& [name, dims] : *shapes) {
      // ge-run's next step: does an input of these dims fit a dynamic desc.
      const ge::TensorDesc any(ge::DataType::kFloat32, std::vector<int64_t>(dims.size(), ge::kUnknownDim));
      (void)any.Admits(dims);
      (void)ge::TensorDesc(ge::DataType::kFloat32, dims).Bytes();
    }
  auto list = ge::app::ParseInputShapeList(flag);
  if (!list.ok()) return 0;
  for (const ge::app::InputShape& s : *list) {
    if (s.ranges.size() != s.dims.size())
      ge::fuzz::Fail(s.name + ": " + std::to_string(s.dims.size()) + " dims, " + std::to_string(s.ranges.size()) + " ranges");
    for (const auto& [lo, hi] : s.ranges)
      if (hi != -1 && lo > hi) ge::fuzz::Fail(s.name + ": range " + std::to_string(lo) + "~" + std::to_string(hi));
  }
  return 0;
}
