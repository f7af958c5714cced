// ge-dump bisect: the first switchable pass after which the model's result
// no longer matches the golden. Step k compiles with the first k switchable
// passes on and all later ones off (CompileOptions::disabled_passes), runs
// the model in v2 mode and compares every output with the README criterion
// (ge/compare.h). A binary search over k assumes that once a pass breaks the
// result, turning more passes on does not repair it. When even every pass
// off mismatches, the planning stages are tried: buffer reuse off blames
// memory_planning, one stream blames stream_assignment.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ge/compiler.h"
#include "ge/model.h"
#include "ge/tools/npy.h"

namespace ge::tools {

// Source model -> compiled model under the given options (re-parsing or
// cloning the source each time is the caller's business).
using CompileFn = std::function<Result<Model>(const CompileOptions&)>;

struct BisectData {
  std::vector<NpyArray> inputs;   // one per model input, in order
  std::vector<NpyArray> goldens;  // one per model output, in order
};

struct BisectStep {
  int step = 0;                 // 1, 2, ...
  size_t prefix = 0;            // number of switchable passes on
  std::string last_on;          // the last pass switched on ("" for none)
  std::string variant;          // a planning choice undone ("buffer reuse off", "one stream"), or ""
  bool match = false;
  std::string detail;           // the comparison, or why it could not run
};

struct BisectResult {
  enum class Outcome {
    kFound,          // culprit names the first pass (or planning stage) that breaks the result
    kAllMatch,       // every pass on still matches
    kBaselineFails,  // even with every switchable pass off it does not match
  } outcome = Outcome::kAllMatch;
  std::string culprit;
  std::vector<std::string> candidates;  // the switchable passes, in pipeline order
  std::vector<BisectStep> steps;
};

// The switchable passes Compile() would run under `base`, in order: the
// pipeline's (ListPasses()) with base.extra_passes inserted where Compile()
// inserts them, minus base.disabled_passes (they stay off in every step).
Result<std::vector<std::string>> SwitchablePasses(const CompileOptions& base);

// Compiles with `options`, loads it in v2 mode and runs it once on data's
// inputs. A model that does not take data's inputs or has another number of
// outputs than data.goldens (when any are given) is an error; a compile,
// load or run failure is not: `failure` says what failed and outputs are empty.
struct ExecutedModel {
  std::string failure;
  std::vector<IoDesc> outputs;
  std::vector<std::vector<uint8_t>> data;  // one per output
};
Result<ExecutedModel> CompileAndExecute(const CompileFn& compile, const CompileOptions& options, const BisectData& data);
// The same for a model compiled already (a load or run failure is `failure`).
Result<ExecutedModel> ExecuteModel(const Model& m, const BisectData& data);

// Compiles with `options`, runs v2 and compares. A model that does not take
// data's inputs or has another number of outputs is an error; a compile or
// run failure is a mismatch (detail says why).
Result<BisectStep> CompileRunCompare(const CompileFn& compile, const CompileOptions& options, const BisectData& data);

// `progress` is called after every step (may be empty).
Result<BisectResult> Bisect(const CompileFn& compile, const CompileOptions& base, const BisectData& data,
                            const std::function<void(const BisectStep&)>& progress = {});

// Deliberately wrong passes, for tests of bisect (ge-dump's hidden
// --test_broken_pass flag, unit tests). kind: "negate_const" negates the
// first float Const with two or more elements; "swap_sub" swaps the inputs of
// the first Sub. The pass is named "broken_<kind>" and runs after `after`.
Result<ExtraPass> MakeBrokenPass(const std::string& kind, const std::string& after);

}  // namespace ge::tools
