// ge-dump compare: two op dumps (ge-run --dump) matched by node name and
// output index, the error of each pair, and the first divergent op: the
// first op in A's execution order whose error is above the thresholds while
// the ops its inputs come from are within them. A is the reference.
//
// Errors of B against A, over the elements of one output:
//   cosine   = a.b / (|a| |b|)  (1 when both are all zeros, 0 when one is)
//   max abs  = max |a_i - b_i|
//   max rel  = max abs / max |a_i|  (relative to A's magnitude, so elements
//              near zero do not blow it up; inf when A is all zeros and B not)
// An output diverges when max abs > atol and (cosine < the cosine threshold
// or max rel > rtol), when NaN or Inf appear in one and not the other, or
// when the shapes differ.
#pragma once

#include <string>
#include <vector>

#include "ge/tools/op_dump_files.h"

namespace ge::tools {

struct DumpThresholds {
  double cosine = 0.999;
  double rtol = 1e-3;
  double atol = 1e-5;
};

struct TensorErrors {
  double cosine = 1;
  double max_abs = 0;
  double max_rel = 0;
  int64_t nonfinite_mismatches = 0;  // elements finite in one and not in the other
};

// Same number of elements in a and b.
TensorErrors ComputeErrors(const std::vector<double>& a, const std::vector<double>& b);
bool Diverges(const TensorErrors& e, const DumpThresholds& t);

struct OpPair {
  std::string node, type;
  int32_t output = 0;
  size_t order_a = 0, order_b = 0;  // positions in each dump
  std::string dtype_a, dtype_b;
  std::vector<int64_t> shape_a, shape_b;
  std::string mismatch;  // "shape [1,8] vs [1,4]": not compared element by element
  TensorErrors errors;
  bool divergent = false;
};

struct DumpComparison {
  DumpThresholds thresholds;
  std::vector<OpPair> pairs;  // A's execution order
  std::vector<std::string> only_a, only_b;  // "node:output (Type)", each dump's order
  int first_divergent = -1;   // index into pairs, -1: none
  std::vector<std::string> first_divergent_inputs;  // the ops its inputs come from (A)
};

// InvalidArgument "A and B have no op output in common (A holds 3, B 0):
// nothing to compare" (A and B: the dump directories) when no output is in
// both: a verdict over nothing must not read as a pass.
Result<DumpComparison> CompareOpDumps(const OpDumpDir& a, const OpDumpDir& b, const DumpThresholds& t);

// The table, the ops in one dump only, and the verdict.
std::string ComparisonText(const DumpComparison& c, const std::string& name_a, const std::string& name_b);
// The same as JSON (non-finite numbers as null).
std::string ComparisonJson(const DumpComparison& c, const std::string& name_a, const std::string& name_b);

}  // namespace ge::tools
