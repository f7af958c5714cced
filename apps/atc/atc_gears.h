// ATC's gear flags (--dynamic_batch_size, --dynamic_image_size,
// --dynamic_dims) into the compiler's GearOptions.
#pragma once

#include <string>

#include "ge/compiler.h"

namespace ge::atc {

// At most one of the three may be given. batch: "1,2,4"; image size:
// "224,224;320,320"; dims: "1,40;2,40" (needs --input_format ND, as atc).
// The -1 dims they fill come in --input_shape's order. An error names the
// flag and the value at fault; no flag: Kind::kNone.
Result<GearOptions> ParseGearFlags(const std::string& batch, const std::string& image_size, const std::string& dims,
                                   const std::string& input_shape, const std::string& input_format);

}  // namespace ge::atc
