// Refused(status, code, part): what a test of a refusal asserts. Checking only
// !ok() passes on any error, including one the test never meant to provoke;
// the code and a part of the message pin the refusal down.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "ge_base/status.h"

namespace ge {

inline ::testing::AssertionResult Refused(const Status& s, StatusCode code, std::string_view part) {
  if (s.ok()) return ::testing::AssertionFailure() << "succeeded, expected " << StatusCodeName(code);
  if (s.code() != code)
    return ::testing::AssertionFailure() << "code " << StatusCodeName(s.code()) << ", expected "
                                         << StatusCodeName(code) << ": " << s.message();
  if (s.message().find(part) == std::string::npos)
    return ::testing::AssertionFailure() << "'" << s.message() << "' does not say '" << part << "'";
  return ::testing::AssertionSuccess() << s.ToString();
}

template <typename T>
::testing::AssertionResult Refused(const Result<T>& r, StatusCode code, std::string_view part) {
  return Refused(r.status(), code, part);
}

}  // namespace ge
