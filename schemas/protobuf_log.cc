#include "ge_proto/protobuf_log.h"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <mutex>
#include <string>

namespace ge {
namespace {

void ToSpdlog(google::protobuf::LogLevel level, const char* file, int line, const std::string& message) {
  static const char* const kLevels[] = {"info", "warning", "error", "fatal"};
  const int l = static_cast<int>(level);
  spdlog::debug("libprotobuf {} {}:{}: {}", l >= 0 && l < 4 ? kLevels[l] : "?", file ? file : "", line, message);
}

}  // namespace

void RouteProtobufLogsToSpdlog() {
  static std::once_flag once;
  std::call_once(once, [] { google::protobuf::SetLogHandler(&ToSpdlog); });
}

}  // namespace ge
