// Logging set-up shared by the tools and any program built on the library:
// spdlog's default logger on stderr, at a level named as ATC names them.
#pragma once

#include <string>

#include "ge_base/status.h"

namespace ge {

// "debug" | "info" | "warning" | "error" | "null" (off). An unknown name is
// an InvalidArgument naming --log and the accepted values.
Status SetupLogging(const std::string& level);

}  // namespace ge
