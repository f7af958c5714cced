// ge-dump: a model's IR after every pass, what each pass changed, which
// pass broke the result, the memory plan and the graph for Graphviz.
// Flag parsing and printing only; the logic is in libge (ge_tools, ge_compiler).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include "common/app_common.h"
#include "common/text_model.h"
#include "common/io_type_flags.h"
#include "dump/dump_flops.h"
#include "ge/tools/bisect.h"
#include "ge/tools/dot.h"
#include "ge/tools/dump_compare.h"
#include "ge/tools/graph_diff.h"
#include "ge/tools/memory_svg.h"
#include "ge/tools/precision_search.h"
#include "ge_base/file_io.h"
#include "ge/ir/json_form.h"
#include "ge/ir/text_form.h"
#include "ge/tools/npy.h"
#include "ge/om.h"

namespace {

constexpr const char* kTool = "ge-dump";

bool IsOm(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".om") == 0; }
bool IsPb(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0; }


// The flags every subcommand that compiles shares with ge-atc.
struct CompileFlags {
  std::string model, input_shape, disable_pass, fusion_switch_file, buffer_optimize = "on", log = "warning";
  std::string insert_op_conf, input_format, output_type, input_fp16_nodes;  // as ge-atc's
  std::string broken_pass;  // test only: AFTER[:KIND]

  void Add(CLI::App* app, bool model_required) {
    auto* m = app->add_option("--model", model, "Model: .onnx, TensorFlow frozen .pb, .ge (the IR's text form), or a compiled .om");
    if (model_required) m->required();
    app->add_option("--input_shape", input_shape, "Input shapes as ge-atc takes them: \"x:1,3,224,224;mask:1,128\"");
    app->add_option("--disable_pass", disable_pass, "Switchable passes to skip, comma-separated (see --list_passes)");
    app->add_option("--fusion_switch_file", fusion_switch_file, "ATC-style fusion switch file (JSON)");
    app->add_option("--buffer_optimize", buffer_optimize, "Memory reuse: on (default) or off")
        ->check(CLI::IsMember({"on", "off"}));
    app->add_option("--insert_op_conf", insert_op_conf, "AIPP configuration, as ge-atc takes it (docs/aipp.md)");
    app->add_option("--input_format", input_format, "Image layout of a TensorFlow model's inputs for AIPP, as ge-atc")
        ->check(CLI::IsMember({"NCHW", "NHWC", "ND", "NCDHW"}));
    app->add_option("--output_type", output_type, "Output dtypes, as ge-atc: FP16, or \"node:index:TYPE;...\"");
    app->add_option("--input_fp16_nodes", input_fp16_nodes, "Inputs that take float16, as ge-atc: \"name1;name2\"");
    app->add_option("--log", log, "Log level on stderr: debug, info, warning (default), error, null");
    // Test only (docs/ge-dump.md): inserts a deliberately wrong pass so the
    // e2e tests can check that bisect names it. Hidden: empty group.
    app->add_option("--test_broken_pass", broken_pass, "AFTER[:negate_const|swap_sub]")->group("");
  }

  ge::Result<ge::CompileOptions> Options() const {
    ge::CompileOptions o;
    GE_RETURN_IF_ERROR(ge::app::ApplyPassFlags(disable_pass, fusion_switch_file, buffer_optimize, o));
    if (!insert_op_conf.empty()) {
      GE_ASSIGN_OR_RETURN(std::vector<ge::AippConfig> aipp, ge::ReadAippConfigFile(insert_op_conf));
      o.aipp = std::move(aipp);
      o.aipp_nhwc = IsPb(model) && input_format != "NCHW";  // as ge-atc: TF images are NHWC by default
    }
    GE_ASSIGN_OR_RETURN(o.output_types, ge::app::ParseOutputType(output_type));
    o.fp16_inputs = ge::app::ParseFp16Nodes(input_fp16_nodes);
    if (!broken_pass.empty()) {
      const size_t colon = broken_pass.find(':');
      const std::string after = broken_pass.substr(0, colon);
      const std::string kind = colon == std::string::npos ? "negate_const" : broken_pass.substr(colon + 1);
      auto p = ge::tools::MakeBrokenPass(kind, after);
      if (!p.ok()) return p.status().Annotated("--test_broken_pass");
      o.extra_passes.push_back(std::move(p).value());
    }
    return o;
  }

  // A source model is parsed and compiled under `options`; a .om is read
  // (it holds the compiled IR only, so compile flags cannot apply to it).
  ge::Result<ge::Model> Load(const ge::CompileOptions& options) const {
    if (IsOm(model)) {
      if (!input_shape.empty() || !disable_pass.empty() || !fusion_switch_file.empty() || !broken_pass.empty() ||
          buffer_optimize != "on" || !insert_op_conf.empty() || !output_type.empty() || !input_fp16_nodes.empty())
        return ge::InvalidArgument(model + ": a .om is already compiled; --input_shape, --disable_pass, "
                                   "--fusion_switch_file, --buffer_optimize, --insert_op_conf, --output_type and "
                                   "--input_fp16_nodes need a source model (.onnx, .pb)");
      GE_ASSIGN_OR_RETURN(ge::LoadedOm om, ge::ReadOmFile(model));
      return std::move(om.model);
    }
    if (ge::app::IsGraphTextPath(model)) return ge::app::CompileGraphText(model, options);  // a .ge: the IR as text
    return ge::app::ConvertModel(model, IsPb(model) ? 3 : 5, input_shape, "", options);
  }
};

void PrintOpCounts(std::FILE* to, const ge::Graph& g) {
  std::map<std::string, int> counts;
  for (ge::Node* n : g.nodes()) ++counts[n->type()];
  std::fprintf(to, "op counts:");
  for (const auto& [type, c] : counts) std::fprintf(to, " %s=%d", type.c_str(), c);
  std::fprintf(to, "\n");
}

void PrintPassList() {
  std::printf("%-4s %-28s %-10s %-11s %s\n", "#", "pass", "stage", "switchable", "fusion");
  int i = 1;
  for (const ge::PassInfo& p : ge::ListPasses())
    std::printf("%-4d %-28s %-10s %-11s %s\n", i++, p.name.c_str(), p.stage.c_str(), p.required ? "no" : "yes",
                p.fusion ? "yes" : "no");
}

// --- ge-dump --model M [--out DIR] [--dot FILE] ---
int DumpMain(const CompileFlags& flags, const std::string& out, const std::string& dot) {
  auto options = flags.Options();
  if (!options.ok()) return ge::app::Fail(kTool, options.status());
  if (!out.empty() && IsOm(flags.model))
    return ge::app::Fail(kTool, ge::InvalidArgument("--out: " + flags.model +
                                                    " is compiled already, it has no passes to dump; give the "
                                                    "source model (.onnx, .pb)"));
  int step = 0;
  ge::Status write_status;
  if (!out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) return ge::app::Fail(kTool, ge::IoError("--out " + out + ": " + ec.message()));
    options->after_pass = [&](const std::string& pass, const ge::Graph& g) {
      char prefix[16];
      std::snprintf(prefix, sizeof(prefix), "%02d_", step++);
      const std::string base = out + "/" + prefix + pass;
      if (!write_status.ok()) return;  // the first failure is the one to report
      write_status = ge::WriteFileAtomically(base + ".txt", ge::GraphToText(g));
      if (write_status.ok()) write_status = ge::WriteFileAtomically(base + ".json", ge::GraphToJson(g));
    };
    // The planning stages leave the graph as it is; their dump is what they decided.
    options->after_plan_stage = [&](const std::string& stage, const std::string& report) {
      char prefix[16];
      std::snprintf(prefix, sizeof(prefix), "%02d_", step++);
      if (!write_status.ok()) return;
      write_status = ge::WriteFileAtomically(out + "/" + prefix + stage + ".txt", stage + ": " + report + "\n");
    };
  }
  auto m = flags.Load(*options);
  if (!m.ok()) return ge::app::Fail(kTool, m.status());
  if (!write_status.ok()) return ge::app::Fail(kTool, write_status);
  if (!dot.empty())
    if (auto s = ge::WriteFileAtomically(dot, ge::tools::GraphToDot(*m->graph)); !s.ok()) return ge::app::Fail(kTool, s.Annotated("--dot"));
  // stdout is the graph text when nothing else is asked for, so it stays
  // pipeable; the counts then go to stderr.
  const bool print_ir = out.empty() && dot.empty();
  if (print_ir) {
    // A dynamic graph's unknown dims print as the input dims they are tied to.
    auto names = ge::InferSymbolicDims(*m->graph);
    std::printf("%s", ge::GraphToText(*m->graph, names.ok() ? &*names : nullptr).c_str());
  }
  PrintOpCounts(print_ir ? stderr : stdout, *m->graph);
  if (!out.empty()) std::printf("wrote %d pass dumps to %s (text and JSON)\n", step, out.c_str());
  if (!dot.empty()) std::printf("wrote %s (%zu nodes)\n", dot.c_str(), m->graph->num_nodes());
  return 0;
}

// --- ge-dump diff --model M [--track NODE] ---
int DiffMain(const CompileFlags& flags, const std::string& track) {
  if (IsOm(flags.model))
    return ge::app::Fail(kTool, ge::InvalidArgument("diff: " + flags.model +
                                                    " is compiled already; give the source model (.onnx, .pb)"));
  auto options = flags.Options();
  if (!options.ok()) return ge::app::Fail(kTool, options.status());
  std::vector<ge::tools::GraphSnapshot> snaps;
  ge::tools::DigestCache digests;
  options->after_pass = [&](const std::string& pass, const ge::Graph& g) {
    snaps.push_back(ge::tools::TakeSnapshot(pass, g, &digests));
  };
  std::vector<std::pair<std::string, std::string>> plan_stages;
  options->after_plan_stage = [&](const std::string& stage, const std::string& report) {
    plan_stages.emplace_back(stage, report);
  };
  auto m = flags.Load(*options);
  if (!m.ok()) return ge::app::Fail(kTool, m.status());
  if (!track.empty()) {
    auto steps = ge::tools::TrackNode(snaps, track);
    if (!steps.ok()) return ge::app::Fail(kTool, steps.status());
    std::printf("tracking %s through %zu passes\n", track.c_str(), snaps.size() - 1);
    for (const auto& t : *steps) {
      std::string what;
      switch (t.state) {
        case ge::tools::TrackStep::State::kRemoved:
          what = t.replaced_by.empty() ? "nothing takes its place that ge-dump can tell"
                                       : "replaced by (guess) " + [&] {
                                           std::string s;
                                           for (const auto& r : t.replaced_by) s += (s.empty() ? "" : ", ") + r;
                                           return s;
                                         }();
          break;
        case ge::tools::TrackStep::State::kPresent: {
          auto it = std::find_if(snaps.begin(), snaps.end(), [&](const auto& s) { return s.pass == t.pass; });
          what = it->nodes.at(track).type;
          break;
        }
        default:
          for (const auto& d : t.details) what += (what.empty() ? "" : "; ") + d;
      }
      std::printf("  %-28s %-9s %s\n", t.pass.c_str(), ge::tools::TrackStateName(t.state), what.c_str());
    }
    return 0;
  }
  int changed_passes = 0;
  for (size_t i = 1; i < snaps.size(); ++i) {
    const ge::tools::PassDiff d = ge::tools::DiffSnapshots(snaps[i - 1], snaps[i]);
    if (d.empty()) {
      std::printf("pass %s: no change\n", d.pass.c_str());
      continue;
    }
    ++changed_passes;
    std::printf("pass %s: %zu added, %zu removed, %zu changed\n", d.pass.c_str(), d.added.size(), d.removed.size(),
                d.changed.size());
    for (const auto& n : d.removed) std::printf("  - %s\n", n.c_str());
    for (const auto& n : d.added) std::printf("  + %s\n", n.c_str());
    for (const auto& c : d.changed) {
      std::printf("  ~ %s (%s):", c.name.c_str(), c.type.c_str());
      for (size_t k = 0; k < c.details.size(); ++k) std::printf("%s %s", k ? ";" : "", c.details[k].c_str());
      std::printf("\n");
    }
  }
  for (const auto& [stage, report] : plan_stages) std::printf("stage %s: %s\n", stage.c_str(), report.c_str());
  std::printf("%zu passes ran, %d changed the graph; nodes %zu -> %zu\n", snaps.size() - 1, changed_passes,
              snaps.front().nodes.size(), snaps.back().nodes.size());
  return 0;
}

// --input and --golden: comma-separated .npy files (either list may be empty).
ge::Result<ge::tools::BisectData> ReadBisectData(const std::string& input, const std::string& golden) {
  ge::tools::BisectData data;
  for (auto [list, flag, into] : {std::tuple{&input, "--input", &data.inputs}, {&golden, "--golden", &data.goldens}})
    for (const auto& f : ge::app::SplitList(*list, ',')) {
      auto a = ge::ReadNpy(f);
      if (!a.ok()) return a.status().Annotated(flag);
      into->push_back(std::move(a).value());
    }
  return data;
}

// --- ge-dump bisect --model M --input x.npy --golden y.npy ---
int BisectMain(const CompileFlags& flags, const std::string& input, const std::string& golden) {
  if (IsOm(flags.model))
    return ge::app::Fail(kTool, ge::InvalidArgument("bisect: " + flags.model +
                                                    " is compiled already; give the source model (.onnx, .pb)"));
  auto options = flags.Options();
  if (!options.ok()) return ge::app::Fail(kTool, options.status());
  auto data = ReadBisectData(input, golden);
  if (!data.ok()) return ge::app::Fail(kTool, data.status());
  auto passes = ge::tools::SwitchablePasses(*options);
  if (!passes.ok()) return ge::app::Fail(kTool, passes.status());
  std::printf("bisecting %zu switchable passes of %s\n", passes->size(), flags.model.c_str());
  std::fflush(stdout);
  const ge::tools::CompileFn compile = [&](const ge::CompileOptions& o) { return flags.Load(o); };
  auto r = ge::tools::Bisect(compile, *options, *data, [&](const ge::tools::BisectStep& s) {
    if (!s.variant.empty())
      std::printf("step %d: every pass off, %s: %s (%s)\n", s.step, s.variant.c_str(), s.match ? "match" : "MISMATCH",
                  s.detail.c_str());
    else
      std::printf("step %d: first %zu of %zu passes on%s: %s (%s)\n", s.step, s.prefix, passes->size(),
                  s.last_on.empty() ? "" : (" (last: " + s.last_on + ")").c_str(), s.match ? "match" : "MISMATCH",
                  s.detail.c_str());
    std::fflush(stdout);
  });
  if (!r.ok()) return ge::app::Fail(kTool, r.status());
  switch (r->outcome) {
    case ge::tools::BisectResult::Outcome::kFound:
      if (std::find(passes->begin(), passes->end(), r->culprit) == passes->end())
        std::printf("first bad stage: %s (the planning stage; every switchable pass off still mismatches)\n",
                    r->culprit.c_str());
      else
        std::printf("first bad pass: %s\n", r->culprit.c_str());
      return 0;
    case ge::tools::BisectResult::Outcome::kAllMatch:
      std::printf("every pass matches: the model with all %zu switchable passes on matches the golden\n",
                  passes->size());
      return 0;
    case ge::tools::BisectResult::Outcome::kBaselineFails:
      return ge::app::Fail(kTool, ge::InvalidArgument(
                                      "bisect: the result does not match even with every switchable pass off, buffer "
                                      "reuse off and one stream; the fault is in a required pass, a kernel, or the "
                                      "golden itself"));
  }
  return 1;
}

// --- ge-dump precision --model M --input x.npy [--golden y.npy] --write keep.txt ---
struct PrecisionFlags {
  std::string input, golden, keep_dtype, modify_mixlist, write;
  double min_cosine = 0.999;
  bool json = false;
};

int PrecisionMain(const CompileFlags& flags, const PrecisionFlags& pf) {
  if (IsOm(flags.model))
    return ge::app::Fail(kTool, ge::InvalidArgument("precision: " + flags.model +
                                                    " is compiled already; give the source model (.onnx, .pb)"));
  auto options = flags.Options();
  if (!options.ok()) return ge::app::Fail(kTool, options.status());
  options->precision.mode = ge::CompileOptions::Precision::kMixBf16;
  if (!pf.keep_dtype.empty())
    if (auto s = ge::ReadKeepDtype(pf.keep_dtype, &options->precision); !s.ok())
      return ge::app::Fail(kTool, s.Annotated("--keep_dtype"));
  if (!pf.modify_mixlist.empty())
    if (auto s = ge::ReadMixList(pf.modify_mixlist, &options->precision); !s.ok())
      return ge::app::Fail(kTool, s.Annotated("--modify_mixlist"));
  auto data = ReadBisectData(pf.input, pf.golden);
  if (!data.ok()) return ge::app::Fail(kTool, data.status());
  // Progress on stderr, so stdout stays the result (JSON with --json).
  std::fprintf(stderr, "precision search on %s: target cosine %.6f against %s\n", flags.model.c_str(), pf.min_cosine,
               pf.golden.empty() ? "ge's float32 result" : pf.golden.c_str());
  const ge::tools::CompileFn compile = [&](const ge::CompileOptions& o) { return flags.Load(o); };
  auto r = ge::tools::SearchKeepDtype(compile, *options, std::move(*data), pf.min_cosine,
                                      [](const ge::tools::PrecisionSearchStep& s) {
                                        std::fprintf(stderr, "  %-9s [%zu/%zu] %-48s cosine %.7f\n", s.phase.c_str(),
                                                     s.index, s.total, s.what.c_str(), s.cosine);
                                        std::fflush(stderr);
                                      });
  if (!r.ok()) return ge::app::Fail(kTool, r.status());
  if (pf.json) {
    std::fputs(ge::tools::PrecisionSearchJson(*r, flags.model).c_str(), stdout);
  } else {
    std::printf("every op in bf16: cosine %.7f (%zu ops can run in bf16)\n", r->all_bf16_cosine, r->candidates.size());
    if (r->prefix > 0) {
      std::printf("%-4s %-52s %-12s %10s %14s\n", "rank", "op", "type", "GFLOP", "alone: cosine");
      for (size_t i = 0; i < r->candidates.size() && i < r->prefix + 3; ++i) {
        const auto& c = r->candidates[i];
        const char* verdict = c.keep_fp32 ? "float32" : i < r->prefix ? "bf16 (pruned)" : "";
        std::printf("%-4zu %-52s %-12s %10.3f %14.7f %s\n", i + 1, c.name.c_str(), c.type.c_str(),
                    static_cast<double>(c.flops) * 1e-9, c.alone_cosine, verdict);
      }
    }
    std::printf("keep %zu of %zu ops in float32 (%.1f %% of their FLOPs): cosine %.7f, target %.6f %s\n", r->kept,
                r->candidates.size(), 100 * r->kept_flop_share, r->final_cosine, r->target,
                r->met ? "met" : "NOT met");
  }
  if (!r->met)
    return ge::app::Fail(kTool, ge::InvalidArgument("precision: cosine " + std::to_string(r->final_cosine) +
                                                    " is below --min_cosine even with every bf16-capable op in "
                                                    "float32; the loss is elsewhere (gray-list ops, the golden)"));
  if (!pf.write.empty()) {
    if (auto s = ge::WriteFileAtomically(pf.write, ge::tools::KeepDtypeFile(*r, options->precision, flags.model));
        !s.ok())
      return ge::app::Fail(kTool, s.Annotated("--write"));
    if (!pf.json)
      std::printf("wrote %s: ge-atc --precision_mode allow_mix_precision --keep_dtype %s\n", pf.write.c_str(),
                  pf.write.c_str());
  }
  return 0;
}

// --- ge-dump memory --model X.om [--svg FILE] ---
int MemoryMain(const CompileFlags& flags, const std::string& svg) {
  auto options = flags.Options();
  if (!options.ok()) return ge::app::Fail(kTool, options.status());
  auto m = flags.Load(*options);
  if (!m.ok()) return ge::app::Fail(kTool, m.status());
  if (m->memory.empty())
    return ge::app::Fail(kTool, ge::NotFound(flags.model + ": the model has no memory plan (compiled without the "
                                                           "memory planner?); recompile it with ge-atc"));
  std::printf("memory plan of %s\n%s", flags.model.c_str(), ge::tools::PlanSummary(m->memory).c_str());
  if (!svg.empty()) {
    auto text = ge::tools::PlanToSvg(m->memory, m->name.empty() ? flags.model : m->name);
    if (!text.ok()) return ge::app::Fail(kTool, text.status());
    if (auto s = ge::WriteFileAtomically(svg, *text); !s.ok()) return ge::app::Fail(kTool, s.Annotated("--svg"));
    std::printf("wrote %s\n", svg.c_str());
  }
  return 0;
}

// --- ge-dump flops --model M [--json] ---
int FlopsMain(const CompileFlags& flags, bool json) {
  auto options = flags.Options();
  if (!options.ok()) return ge::app::Fail(kTool, options.status());
  auto m = flags.Load(*options);
  if (!m.ok()) return ge::app::Fail(kTool, m.status());
  const std::vector<ge::NodeFlops> rows = ge::CountGraphFlops(*m->graph);
  const std::string name = m->name.empty() ? flags.model : m->name;
  std::fputs((json ? ge::dump::FlopsJson(rows, name) : ge::dump::FlopsText(rows, name)).c_str(), stdout);
  return 0;
}

// --- ge-dump compare A B ---
// Exit 0 when no op diverges; 1 when one does (or on an error, with the error line).
int CompareMain(const std::string& dir_a, const std::string& dir_b, const ge::tools::DumpThresholds& t, bool json) {
  auto a = ge::tools::ReadOpDump(dir_a);
  if (!a.ok()) return ge::app::Fail(kTool, a.status());
  auto b = ge::tools::ReadOpDump(dir_b);
  if (!b.ok()) return ge::app::Fail(kTool, b.status());
  auto compared = ge::tools::CompareOpDumps(*a, *b, t);
  if (!compared.ok()) return ge::app::Fail(kTool, compared.status());
  const ge::tools::DumpComparison& c = *compared;
  const std::string text = json ? ge::tools::ComparisonJson(c, dir_a, dir_b) : ge::tools::ComparisonText(c, dir_a, dir_b);
  std::fputs(text.c_str(), stdout);
  return std::any_of(c.pairs.begin(), c.pairs.end(), [](const ge::tools::OpPair& p) { return p.divergent; }) ? 1 : 0;
}

// A subcommand that loads a model (`--model` required) with the compile flags.
CLI::App* AddModelSubcommand(CLI::App& app, const std::string& name, const std::string& about, CompileFlags& flags) {
  CLI::App* sub = app.add_subcommand(name, about);
  flags.Add(sub, true);
  return sub;
}

constexpr const char* kDumpHelp =
    "ge-dump: what the compiler did to a model, pass by pass.\n\n"
    "  ge-dump --model m.onnx                  # the compiled IR (text form) on stdout, op counts on stderr\n"
    "  ge-dump --model m.onnx --out DIR        # DIR/00_parsed.{txt,json}, 01_<pass>.{txt,json}, ...\n"
    "  ge-dump --model m.onnx --dot g.dot      # the compiled graph for Graphviz\n"
    "  ge-dump --model m.om                    # the IR stored in a .om\n"
    "  ge-dump --list_passes                   # the pipeline: name, stage, switchable, fusion\n"
    "  ge-dump diff --model m.onnx [--track N] # nodes added/removed/changed per pass; one node's story\n"
    "  ge-dump bisect --model m.onnx --input x.npy --golden y.npy   # the first pass that breaks the result\n"
    "  ge-dump precision --model m.onnx --input x.npy --write keep.txt  # the ops bf16 must leave in float32\n"
    "  ge-dump memory --model m.om --svg plan.svg                   # the memory plan, drawn and summed up\n"
    "  ge-dump compare A B                                          # two op dumps (ge-run --dump): first divergent op\n"
    "  ge-dump flops --model m.om [--json]                          # FLOPs per node, per op type, total GFLOP\n\n"
    "Compile flags as in ge-atc: --input_shape, --disable_pass, --fusion_switch_file, --buffer_optimize.\n"
    "Each subcommand has its own --help. docs/ge-dump.md has examples.";

int Main(CLI::App& app, int argc, char** argv) {
  app.require_subcommand(0, 1);
  CompileFlags top;
  std::string out, dot;
  bool list_passes = false;
  top.Add(&app, false);
  app.add_option("--out", out, "Directory for the IR after each pass, text and JSON (created if missing)");
  app.add_option("--dot", dot, "Write the compiled graph for Graphviz (dot -Tsvg FILE)");
  app.add_flag("--list_passes", list_passes, "Print the pass pipeline (name, stage, switchable, fusion) and exit");

  CompileFlags diff_flags;
  std::string track;
  CLI::App* diff = AddModelSubcommand(
      app, "diff", "Pass by pass, the nodes each pass added, removed and changed (type, attributes, inputs, output "
                   "descriptions); with --track NODE, that node's state after every pass and, when it is removed, what "
                   "took its place (a guess from its consumers and from names derived from it).",
      diff_flags);
  diff->add_option("--track", track, "Follow one node (by name) through the passes");

  CompileFlags bisect_flags;
  std::string input, golden;
  CLI::App* bisect = AddModelSubcommand(
      app, "bisect", "Find the first switchable pass after which the result no longer matches the golden: compiles with "
                     "the first k switchable passes on (binary search over k), runs v2 and compares every output with "
                     "the README criterion (max|y-ref| <= 1e-3*max|ref| + 1e-5, cosine >= 0.99999). Prints each step; "
                     "exit 0 with the pass name, or when everything matches; non-zero when even all passes off mismatch.",
      bisect_flags);
  bisect->add_option("--input", input, "Input .npy files, comma-separated, one per model input")->required();
  bisect->add_option("--golden", golden, "Expected outputs .npy, comma-separated, one per model output")->required();

  CompileFlags precision_flags;
  PrecisionFlags pf;
  CLI::App* precision = AddModelSubcommand(
      app, "precision",
      "For --precision_mode allow_mix_precision: the fewest ops to keep in float32 so that the output's cosine "
      "similarity to the float32 result stays at or above --min_cosine. Measures every bf16-capable op (Conv, "
      "MatMul, Gemm) alone in bf16, ranks them by lost cosine per FLOP, and binary-searches how many of the ranking "
      "to keep; about N + log2(N) + 3 compiles and runs. Writes ATC's --keep_dtype file (--write) for ge-atc. Needs a CPU "
      "with native bf16. Exit 0 when the target is met, non-zero when it cannot be. docs/precision.md.",
      precision_flags);
  precision->add_option("--input", pf.input, "Input .npy files, comma-separated, one per model input")->required();
  precision->add_option("--golden", pf.golden,
                        "The float32 reference outputs .npy, comma-separated (default: the model compiled in float32 "
                        "and run on --input)");
  precision->add_option("--min_cosine", pf.min_cosine, "The cosine similarity to keep (default 0.999)")
      ->check(CLI::Range(0.0, 1.0));
  precision->add_option("--keep_dtype", pf.keep_dtype, "Ops already kept in float32 (ATC's file), kept throughout");
  precision->add_option("--modify_mixlist", pf.modify_mixlist, "ATC's mix-list JSON, as ge-atc takes it");
  precision->add_option("--write", pf.write, "Write the answer as a --keep_dtype file");
  precision->add_flag("--json", pf.json, "Print the result as JSON (every candidate, its cost, whether it is kept)");

  CompileFlags memory_flags;
  std::string svg;
  CLI::App* memory = AddModelSubcommand(
      app, "memory", "The memory plan of a model (.om, or a source model compiled now): feature-map peak, lower bound, "
                     "no-reuse sum; with --svg, a drawing (x: execution step, y: offset, one rectangle per buffer, "
                     "labelled with its node; hover for size and lifetime).",
      memory_flags);
  memory->add_option("--svg", svg, "Write the plan as SVG");

  std::string dump_a, dump_b;
  ge::tools::DumpThresholds thresholds;
  bool compare_json = false;
  CLI::App* compare = app.add_subcommand(
      "compare", "Compare two op dumps written by ge-run --dump (A is the reference): ops matched by node name and "
                 "output index, per pair cosine similarity, max abs error and max rel error (max abs / max|A|), a "
                 "table in A's execution order, the ops in one dump only (fusion and layout change the nodes), and "
                 "the first divergent op: the first whose error is above the thresholds while its inputs' ops are "
                 "within them. An op diverges when max abs > --atol and (cosine < --cosine or max rel > --rtol). "
                 "Exit 0 when none diverges, 1 when one does.");
  compare->add_option("A", dump_a, "The reference dump directory")->required();
  compare->add_option("B", dump_b, "The dump directory to check")->required();
  compare->add_option("--cosine", thresholds.cosine, "Diverges below this cosine similarity (default 0.999)");
  compare->add_option("--rtol", thresholds.rtol, "Diverges above this max rel error (default 1e-3)")
      ->check(CLI::NonNegativeNumber);
  compare->add_option("--atol", thresholds.atol, "Never diverges at or below this max abs error (default 1e-5)")
      ->check(CLI::NonNegativeNumber);
  compare->add_flag("--json", compare_json, "Print the comparison as JSON");

  CompileFlags flops_flags;
  bool flops_json = false;
  CLI::App* flops = AddModelSubcommand(
      app, "flops", "The FLOPs of every node of the compiled model (.om, or a source model compiled now) from its op, "
                    "attributes and static shapes: a multiply-add counts 2; Conv, ConvTranspose, MatMul/Gemm, pooling, "
                    "elementwise, norms and Softmax are counted, data movement is 0 (docs/ge-dump.md#flops). Prints the "
                    "nodes with work, a sum per op type and the total GFLOP; unknown shapes print '?'.",
      flops_flags);
  flops->add_flag("--json", flops_json, "Print the counts as JSON (every node, per op type, the total)");

  for (CLI::App* sub : {diff, bisect, precision, memory, compare, flops}) ge::app::InstallOneLineErrors(*sub, kTool);
  CLI11_PARSE(app, argc, argv);

  const CompileFlags& used = diff->parsed() ? diff_flags : bisect->parsed() ? bisect_flags
                                                        : precision->parsed() ? precision_flags
                                                        : memory->parsed() ? memory_flags
                                                        : flops->parsed()  ? flops_flags
                                                                           : top;
  if (auto s = ge::app::SetupLogging(used.log); !s.ok()) return ge::app::Fail(kTool, s);
  if (diff->parsed()) return DiffMain(diff_flags, track);
  if (bisect->parsed()) return BisectMain(bisect_flags, input, golden);
  if (precision->parsed()) return PrecisionMain(precision_flags, pf);
  if (memory->parsed()) return MemoryMain(memory_flags, svg);
  if (compare->parsed()) return CompareMain(dump_a, dump_b, thresholds, compare_json);
  if (flops->parsed()) return FlopsMain(flops_flags, flops_json);
  if (list_passes) {
    PrintPassList();
    return 0;
  }
  if (top.model.empty())
    return ge::app::Fail(kTool, ge::InvalidArgument("--model is required (or --list_passes, or a subcommand: diff, "
                                                    "bisect, precision, memory, compare, flops; see --help)"));
  return DumpMain(top, out, dot);
}

}  // namespace

int main(int argc, char** argv) { return ge::app::RunMain(kTool, kDumpHelp, Main, argc, argv); }
