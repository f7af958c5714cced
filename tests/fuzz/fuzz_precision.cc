// Fuzz target: the mixed-precision files, each input read both as a
// --modify_mixlist JSON file (ReadMixList) and as a --keep_dtype text file
// (ReadKeepDtype). Errors are values; no input may crash either reader.
#include <cstdint>
#include <string>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  const std::string path = ge::fuzz::AsFile(data, size, ".precision");
  ge::CompileOptions::Precision mix;
  (void)ge::ReadMixList(path, &mix);
  ge::CompileOptions::Precision keep;
  const ge::Status s = ge::ReadKeepDtype(path, &keep);
  // A keep list names nodes and types, never an empty name.
  if (s.ok() && (keep.keep_nodes.count("") || keep.keep_types.count("")))
    ge::fuzz::Fail("ReadKeepDtype accepted an empty name");
  return 0;
}
