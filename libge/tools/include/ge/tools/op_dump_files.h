// An op dump on disk (ge-run --dump DIR): one .npy per (node, output index)
// and DIR/dump.json listing them in execution order:
//
//   {"format": "ge-op-dump", "version": 1, "model": "tiny_cnn",
//    "ops": [{"node": "conv1", "type": "Conv", "output": 0, "dtype": "f32",
//             "shape": [1, 8, 16, 16], "file": "0000_conv1_0.npy", "inputs": ["input", "w1", "b1"]}, ...]}
//
// Tensors are plain row-major (NCHW), whatever layout the kernel wrote.
#pragma once

#include <string>
#include <vector>

#include "ge/op_dump.h"
#include "ge/tools/npy.h"

namespace ge::tools {

struct DumpedOp {
  std::string node, type;
  int32_t output = 0;
  std::vector<std::string> inputs;  // nodes its data inputs come from
  std::string file;                 // relative to the dump directory
  NpyArray tensor;
};

struct OpDumpDir {
  std::string dir;
  std::string model;
  std::vector<DumpedOp> ops;  // execution order
};

// Writes every output (each file atomically) and then dump.json; creates
// `dir` when missing. Errors name the directory or file.
Status WriteOpDump(const std::string& dir, const std::string& model_name, const std::vector<OpOutput>& ops);

// Reads dump.json and every tensor it lists; a missing or damaged file, or a
// tensor whose dtype or shape differs from its entry, is an error naming it.
Result<OpDumpDir> ReadOpDump(const std::string& dir);

}  // namespace ge::tools
