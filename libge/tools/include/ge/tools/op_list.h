// What this build can run, op type by op type: the op registry's entries and
// whether the backend has a kernel for each (ge-atc --list_ops). The ONNX
// support page is generated from it (scripts/gen_onnx_support.py).
#pragma once

#include <string>
#include <vector>

#include "hal/kernel.h"

namespace ge::tools {

struct OpListEntry {
  std::string type;
  bool kernel = false;           // the backend runs it (structural ops such as Data need none)
  bool computed_shape = false;   // output shape known only after the kernel ran (NonZero)
  std::vector<int> value_inputs; // inputs whose values decide the output shape
  int min_inputs = 0, max_inputs = 0, min_outputs = 0, max_outputs = 0;  // -1: variadic
};

// Every registered op type, sorted by name.
std::vector<OpListEntry> ListOps(const hal::KernelRegistry& kernels);

// {"ops": [{"type", "kernel", "computed_shape", "value_inputs", "inputs": [min, max],
//  "outputs": [min, max]}]}
std::string OpListJson(const std::vector<OpListEntry>& ops);

// For people: "N op types (M with a CPU kernel):" then one line per op.
std::string OpListText(const std::vector<OpListEntry>& ops);

}  // namespace ge::tools
