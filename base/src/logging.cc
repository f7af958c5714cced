#include "ge_base/logging.h"

#include <map>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace ge {

Status SetupLogging(const std::string& level) {
  static const std::map<std::string, spdlog::level::level_enum> kLevels = {
      {"debug", spdlog::level::debug}, {"info", spdlog::level::info}, {"warning", spdlog::level::warn},
      {"error", spdlog::level::err},   {"null", spdlog::level::off}};
  auto it = kLevels.find(level);
  if (it == kLevels.end()) return InvalidArgument("--log: unknown level '" + level + "' (debug, info, warning, error, null)");
  auto logger = spdlog::get("ge");
  if (!logger) {
    logger = spdlog::stderr_color_mt("ge");
    logger->set_pattern("[%L %H:%M:%S.%e] %v");
  }
  spdlog::set_default_logger(logger);
  spdlog::set_level(it->second);
  return Status::Ok();
}

}  // namespace ge
