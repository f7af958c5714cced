#include "run/run_compat.h"

#include <algorithm>
#include <cctype>
#include <iterator>

#include "common/app_common.h"

namespace ge::run {
namespace {

constexpr const char* kGroup = "msame / ais_bench flags accepted for unchanged command lines";

// What a foreign flag's value may be.
enum class Accept {
  kNo,       // any value is a no-op ("no", "false", "0")
  kZero,     // the number 0 is a no-op
  kAnyValue, // every value is accepted and ignored
  kNothing,  // refused whatever the value
};

struct Spec {
  const char* name;
  const char* origin;
  Accept accept;
  const char* help;  // what the flag does there and what ge-run does with it
  const char* why;   // why a value that does something is refused
};

constexpr Spec kSpecs[] = {
    {"--profiler", "msame, ais_bench", Accept::kNo, "(msame, ais_bench) msprof profiling; only 'false' is accepted",
     "there is no msprof here: use --mode sink --profile trace.json for a per-task Chrome trace"},
    {"--dymShape_range", "ais_bench", Accept::kNothing, "(ais_bench) range of dynamic shapes to sweep; refused",
     "run one shape per call with --dymShape (a dynamic model runs any shape)"},
    {"--auto_set_dymshape_mode", "ais_bench", Accept::kNo, "(ais_bench) shape from each input file; only 'false'",
     "a dynamic model always takes each input file's shape; a static one needs the model's"},
    {"--auto_set_dymdims_mode", "ais_bench", Accept::kNo, "(ais_bench) dims from each input file; only 'false'",
     "a dynamic model always takes each input file's dims; a static one needs the model's"},
    {"--acl_json_path", "ais_bench", Accept::kNothing, "(ais_bench) acl.json for profiling or dump; refused",
     "there is no ACL here: see --profile (sink) and ge-dump"},
    {"--aipp_config", "ais_bench", Accept::kNothing, "(ais_bench) dynamic AIPP config; refused",
     "dynamic AIPP is not supported: compile static AIPP into the .om with ge-atc --insert_op_conf"},
    {"--output_batchsize_axis", "ais_bench", Accept::kZero,
     "(ais_bench) axis to split outputs of combined inputs; only 0 (ge-run never combines input files)",
     "ge-run runs one inference per input file set and never combines files into a batch"},
    {"--run_mode", "ais_bench", Accept::kAnyValue,
     "(ais_bench) array|files|tensor|full: how inputs are staged; ignored, the results are the same", ""},
    {"--energy_consumption", "ais_bench", Accept::kNo, "(ais_bench) NPU energy figure; only 'false'",
     "the CPU backend has no energy counter"},
    {"--npu_id", "ais_bench", Accept::kAnyValue, "(ais_bench) NPU for --energy_consumption; ignored", ""},
    {"--backend", "ais_bench", Accept::kNothing, "(ais_bench) trtexec backend; refused",
     "ge-run runs .om files only; trtexec is NVIDIA's tool"},
    {"--perf", "ais_bench", Accept::kNo, "(ais_bench) trtexec performance mode; only 'false'",
     "ge-run runs .om files only; trtexec is NVIDIA's tool"},
    {"--pipeline", "ais_bench", Accept::kAnyValue,
     "(ais_bench) overlap staging and compute in threads; ignored (--mode sink --run_loop N queues inferences)", ""},
    {"--threads", "ais_bench", Accept::kAnyValue, "(ais_bench) threads for --pipeline; ignored", ""},
    {"--profiler_rename", "ais_bench", Accept::kAnyValue, "(ais_bench) rename msprof output; ignored", ""},
    {"--dump_npy", "ais_bench", Accept::kNo, "(ais_bench) convert dumps to .npy; only 'false'",
     "ge-run's op dump (--dump DIR) writes .npy already; --outfmt NPY for the model's outputs"},
    {"--divide_input", "ais_bench", Accept::kNo, "(ais_bench) split inputs between devices; only 'false'",
     "there is one device of each kind here"},
};

}  // namespace

Result<bool> ParseYesNo(const std::string& flag, const std::string& value) {
  const std::string v = app::ToLower(value);
  for (const char* yes : {"", "true", "1", "yes", "y", "t", "on"})
    if (v == yes) return true;
  for (const char* no : {"false", "0", "no", "n", "f", "off"})
    if (v == no) return false;
  return InvalidArgument(flag + " " + value + ": expected true or false (or 1/0, yes/no)");
}

BoolFlag::BoolFlag(CLI::App& app, const std::string& name, const std::string& help) : name_(name) {
  option_ = app.add_option(name, value_, help)->expected(0, 1);
}

Result<bool> BoolFlag::Value() const {
  if (!given()) return false;
  return ParseYesNo(name_, value_);
}

// spec indexes kSpecs: a pointer would give this class of the header a field
// of a file-local type, which GCC warns about in a unity batch.
struct ForeignFlags::Entry {
  size_t spec;
  std::string value;
  CLI::Option* option = nullptr;
};

ForeignFlags::ForeignFlags(CLI::App& app) {
  for (size_t k = 0; k < std::size(kSpecs); ++k) {
    const Spec& s = kSpecs[k];
    auto e = std::make_unique<Entry>();
    e->spec = k;
    e->option = app.add_option(s.name, e->value, s.help)->group(kGroup);
    entries_.push_back(std::move(e));
  }
}

ForeignFlags::~ForeignFlags() = default;

Status ForeignFlags::Check() const {
  for (const auto& e : entries_) {
    if (e->option->count() == 0) continue;
    const Spec& s = kSpecs[e->spec];
    const std::string flag = std::string(s.name) + " " + e->value;
    bool noop = false;
    switch (s.accept) {
      case Accept::kAnyValue: noop = true; break;
      case Accept::kNothing: noop = false; break;
      case Accept::kZero: noop = e->value.find_first_not_of("0") == std::string::npos && !e->value.empty(); break;
      case Accept::kNo: {
        auto yes = ParseYesNo(s.name, e->value);
        if (!yes.ok()) return yes.status();
        noop = !*yes;
        break;
      }
    }
    if (!noop) return Unsupported(flag + " (" + s.origin + ") is not supported: " + s.why);
  }
  return Status::Ok();
}

}  // namespace ge::run
