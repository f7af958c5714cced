#include "atc/atc_gears.h"

#include <cstdlib>

#include "common/app_common.h"

namespace ge::atc {
namespace {

Result<std::vector<int64_t>> Values(const std::string& flag, const std::string& text, char sep) {
  std::vector<int64_t> out;
  for (const std::string& v : app::SplitList(text, sep)) {
    char* end = nullptr;
    const long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || end == v.c_str() || *end != '\0' || x < 1)
      return InvalidArgument(flag + ": '" + v + "' in \"" + text + "\" is not a dim size");
    out.push_back(x);
  }
  if (out.empty()) return InvalidArgument(flag + ": \"" + text + "\" gives no value");
  return out;
}

}  // namespace

Result<GearOptions> ParseGearFlags(const std::string& batch, const std::string& image_size, const std::string& dims,
                                   const std::string& input_shape, const std::string& input_format) {
  GearOptions g;
  const int given = !batch.empty() + !image_size.empty() + !dims.empty();
  if (given == 0) return g;
  if (given > 1)
    return InvalidArgument("--dynamic_batch_size, --dynamic_image_size and --dynamic_dims: give one of them, not " +
                           std::to_string(given));
  GE_ASSIGN_OR_RETURN(std::vector<app::InputShape> shapes, app::ParseInputShapeList(input_shape));
  for (const app::InputShape& s : shapes)
    for (const auto& [lo, hi] : s.ranges)
      if (lo >= 0)
        return InvalidArgument("--input_shape: input " + s.name + " has a range (LO~HI); gears take -1 dims only");
  if (!batch.empty()) {
    g.kind = GearOptions::Kind::kBatch;
    GE_ASSIGN_OR_RETURN(std::vector<int64_t> v, Values("--dynamic_batch_size", batch, ','));
    for (int64_t b : v) g.values.push_back({b});
  } else if (!image_size.empty()) {
    g.kind = GearOptions::Kind::kImageSize;
    for (const std::string& gear : app::SplitList(image_size, ';')) {
      GE_ASSIGN_OR_RETURN(std::vector<int64_t> v, Values("--dynamic_image_size", gear, ','));
      if (v.size() != 2) return InvalidArgument("--dynamic_image_size: \"" + gear + "\" is not H,W");
      g.values.push_back(v);
    }
  } else {
    if (app::ToLower(input_format) != "nd")
      return InvalidArgument("--dynamic_dims needs --input_format ND (as atc): the gears give the -1 dims of ND inputs");
    g.kind = GearOptions::Kind::kDims;
    for (const std::string& gear : app::SplitList(dims, ';')) {
      GE_ASSIGN_OR_RETURN(std::vector<int64_t> v, Values("--dynamic_dims", gear, ','));
      g.values.push_back(v);
    }
    for (const app::InputShape& s : shapes) g.order.push_back(s.name);
  }
  if (g.values.empty()) return InvalidArgument(std::string(GearFlagName(g.kind)) + ": no gears given");
  return g;
}

}  // namespace ge::atc
