#include "config_json.h"

#include "ge_base/regular_file.h"

namespace ge {

Result<nlohmann::json> ReadConfigJsonObject(const std::string& path, const std::string& what) {
  GE_ASSIGN_OR_RETURN(std::string text, ReadRegularFile(path, what));
  // nlohmann's parser keeps its own stack on the heap; the callback stops the
  // tree at the limit (a value it refuses is not built), so nothing deeper
  // ever reaches a recursive walk.
  bool too_deep = false;
  const nlohmann::json::parser_callback_t limit = [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxConfigJsonDepth) too_deep = true;
    return !too_deep;
  };
  nlohmann::json j = nlohmann::json::parse(text, limit, /*allow_exceptions=*/false);
  if (too_deep) return InvalidArgument(path + ": JSON nested deeper than " + std::to_string(kMaxConfigJsonDepth) + " levels");
  if (j.is_discarded() || !j.is_object()) return InvalidArgument(path + ": not a JSON object");
  return j;
}

}  // namespace ge
