// An int64 field of a model's JSON form: protobuf's JSON writes 64-bit
// integers as strings, and omits fields equal to zero.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ge::test {

inline int64_t JsonInt(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) return 0;
  return j[key].is_string() ? std::stoll(j[key].get<std::string>()) : j[key].get<int64_t>();
}

}  // namespace ge::test
