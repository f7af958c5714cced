// ge-dump precision: which ops a mixed precision model must keep in float32
// to stay within a cosine similarity of the float32 result. It writes ATC's
// --keep_dtype file, so the choice is the user's to read, edit and reuse.
//
// Rounding errors are not equal: an early convolution's error passes through
// every later layer and can cost more than the whole rest of the network
// (ResNet-50: the stem and layer1, 19 % of the FLOPs, hold most of it). So
// each candidate (a white-list op that went bf16) is measured alone: the
// model compiled with only that op in bf16, its output's cosine against the
// reference. Candidates are ranked by that cost per FLOP (keeping a cheap op
// in float32 costs little speed), and a binary search finds the shortest
// prefix of the ranking to keep in float32 so that the rest, in bf16, meets
// the target. Then each op of that prefix, the most FLOPs first, goes back to
// bf16 if the target still holds without it (the alone costs do not add up,
// so the prefix overshoots). For N candidates and a prefix of K: the mixed
// model once, each candidate alone, about log2(N) + 1 prefixes and K prunes;
// one more for the float32 reference without a golden.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ge/compiler.h"
#include "ge/tools/bisect.h"

namespace ge::tools {

struct PrecisionCandidate {
  std::string name, type;
  int64_t flops = 0;
  double alone_cosine = 1;  // only this op in bf16
  bool keep_fp32 = false;   // in the answer
};

struct PrecisionSearchResult {
  double target = 0;
  double all_bf16_cosine = 1;  // every candidate in bf16 (the user's own --keep_dtype aside)
  double final_cosine = 1;     // the kept ones in float32
  bool met = false;            // final_cosine >= target
  // In rank order: highest cost per FLOP first.
  std::vector<PrecisionCandidate> candidates;
  size_t prefix = 0;            // the ranking's prefix the binary search found
  size_t kept = 0;              // of it, the ops still in float32 after the pruning
  double kept_flop_share = 0;  // of the candidates' FLOPs
};

struct PrecisionSearchStep {
  std::string phase;  // "reference", "all bf16", "alone", "keep", "prune"
  size_t index = 0, total = 0;
  std::string what;   // the op measured, or "top K"
  double cosine = 1;
};

// base: the options as ge-atc would take them, with a mixed precision mode
// (base.precision.keep_* are the user's and stay float32 throughout).
// data.goldens: the float32 reference, one per output; when empty, base
// compiled in float32 and run on data.inputs is the reference. The cosine of
// a run is the lowest over its float outputs.
Result<PrecisionSearchResult> SearchKeepDtype(const CompileFn& compile, const CompileOptions& base, BisectData data,
                                              double target,
                                              const std::function<void(const PrecisionSearchStep&)>& progress = {});

// The --keep_dtype file: a comment header with the result, then one
// "OpName::name" line per kept op (and the user's own entries of base).
std::string KeepDtypeFile(const PrecisionSearchResult& r, const CompileOptions::Precision& base,
                          const std::string& model);

std::string PrecisionSearchJson(const PrecisionSearchResult& r, const std::string& model);

}  // namespace ge::tools
