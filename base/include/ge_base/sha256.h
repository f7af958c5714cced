// SHA-256, for the source-model hash stored in a .om.
#pragma once

#include <cstddef>
#include <string>

#include "ge_base/status.h"

namespace ge {

std::string Sha256Hex(const void* data, size_t size);
Result<std::string> Sha256File(const std::string& path);

}  // namespace ge
