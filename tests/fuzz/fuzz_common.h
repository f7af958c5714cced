// What the fuzz targets share: quiet logs, the compile each front end runs,
// and the round trip a compiled model must survive. A broken invariant aborts,
// so libFuzzer (or the replay tests) report it like any crash.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "ge/compiler.h"
#include "ge/om.h"
#include "ge_base/logging.h"

namespace ge::fuzz {

// Every rejected input would log a line; at libFuzzer's rate that is the
// whole cost of a run. Errors come back as values and are ignored here.
inline void Quiet() {
  static const bool once = [] {
    (void)SetupLogging("null");
    return true;
  }();
  (void)once;
}

[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what.c_str());
  std::abort();
}

// The input as a file, for readers that take a path as the tools' flags do
// (--fusion_switch_file, --keep_dtype): one file per process and suffix in
// the temp directory, rewritten for every input.
inline std::string AsFile(const uint8_t* data, size_t size, const std::string& suffix) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/ge_fuzz_" + std::to_string(::getpid()) + suffix;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  f.close();
  if (!f) Fail("cannot write the fuzz input to " + path);
  return path;
}

// ge-atc's path after the parser: compile, then the .om round trip. A model
// the compiler accepts must serialise, and its bytes must read back (else
// ge-atc writes files that ge-run refuses).
inline void CompileAndRoundTrip(std::unique_ptr<Graph> graph, const std::string& framework) {
  CompileOptions options;
  options.model_name = "fuzz";
  options.framework = framework;
  auto model = Compile(std::move(graph), options);
  if (!model.ok()) return;
  auto bytes = SerializeOm(*model);
  if (!bytes.ok()) Fail("a compiled model does not serialise: " + bytes.status().message());
  auto back = ParseOm(bytes->data(), bytes->size(), "fuzz.om");
  if (!back.ok()) Fail("a compiled model's .om does not read back: " + back.status().message());
}

}  // namespace ge::fuzz
