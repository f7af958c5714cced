// ATC's command line as Ascend's samples write it: the spellings atc accepts
// (-flag, --flag-name, --flag=value) and the flags that mean nothing on a CPU,
// each accepted with one warning line or refused with its reason, never
// "argument was not expected". docs/compatibility.md is the table in prose;
// a test keeps the two in step.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "ge_base/status.h"

namespace ge::atc {

// atc spellings -> ours: "-soc_version" -> "--soc_version", "--soc-version=X"
// -> "--soc_version=X", "--h" -> "--help". Values are left alone.
std::vector<std::string> NormalizeArgs(int argc, char** argv);

struct CompatFlag {
  enum class Kind { kIgnored, kRefused };
  const char* name;  // without the dashes
  Kind kind;
  const char* why;   // the warning's or the error's reason
};
// Every atc flag ge-atc takes only to ignore or refuse.
const std::vector<CompatFlag>& CompatFlags();

// Registers each compat flag as a string option in `app`; parsed values
// land in `values` (flag name -> value; absent when not given).
void AddCompatOptions(CLI::App& app, std::map<std::string, std::string>& values);
// The refused flag given first is an error naming it; each ignored one
// given adds a warning line (returned, for the caller to print).
Result<std::vector<std::string>> CheckCompatOptions(const std::map<std::string, std::string>& values);

}  // namespace ge::atc
