// msame and ais_bench flags that ge-run has no use for, accepted so their
// command lines run unchanged: each is a no-op at its default (or at any
// value, when it only tunes how those tools schedule work) and refused with
// the reason otherwise. Also the yes/no flags both tools spell with a value
// ("--debug true", "--display_all_summary 1") or bare ("--debug").
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "ge_base/status.h"

namespace ge::run {

// A yes/no flag: bare, or with true/false, 1/0, yes/no, y/n, t/f.
class BoolFlag {
 public:
  BoolFlag(CLI::App& app, const std::string& name, const std::string& help);
  // Whether the flag was given at all (then Value() tells yes or no).
  bool given() const { return option_->count() > 0; }
  // False when absent; an error naming the flag for a value that is no yes/no.
  Result<bool> Value() const;

 private:
  std::string name_;
  std::string value_;
  CLI::Option* option_ = nullptr;
};

// Parses "true", "1", "yes", ... (any case): an error naming `flag` otherwise.
Result<bool> ParseYesNo(const std::string& flag, const std::string& value);

// The foreign flags, registered in their own --help group.
class ForeignFlags {
 public:
  explicit ForeignFlags(CLI::App& app);
  ~ForeignFlags();
  // The first foreign flag given with a value ge-run cannot honour, as an
  // error saying why and what to use instead.
  Status Check() const;

 private:
  struct Entry;
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace ge::run
