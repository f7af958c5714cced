// Comparing an output against a golden tensor with the criterion of the
// reference models: max|y - ref| <= 1e-3 * max|ref| + 1e-5 and cosine
// similarity >= 0.99999 (integer and bool outputs must match exactly).
#pragma once

#include <optional>
#include <string>

#include "ge/tools/npy.h"

namespace ge {

struct CompareResult {
  double max_abs_diff = 0;
  double max_abs_ref = 0;
  double cosine = 1;
  bool pass = false;
  std::string reason;  // why it failed, when it did
};

constexpr double kCompareRelTol = 1e-3;
constexpr double kCompareAbsTol = 1e-5;
constexpr double kCompareMinCosine = 0.99999;

// Shapes must match exactly (a mismatch is a FAIL with the reason). With
// min_cosine set, a float output passes on cosine >= min_cosine alone (a
// reduced-precision model, where the element tolerance says nothing).
CompareResult CompareTensors(const TensorDesc& desc, const void* data, const NpyArray& golden,
                             std::optional<double> min_cosine = std::nullopt);

}  // namespace ge
