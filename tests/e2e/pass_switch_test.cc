// Switching any pass off never breaks correctness: every reference model of
// GE_MODELS_DIR is compiled with all passes on and then with each
// switchable pass of ge::ListPasses() off in turn (fusion passes included,
// as they are added), run under v2 and compared with MODEL.output.npy by the
// README criterion (ge/compare.h). In process, one compile per (model,
// disabled pass), so the walk stays fast. A variant whose compiled graph
// is identical (text form and constant bytes) to the all-on graph — the
// pass did nothing on that model — is not run again: its result is the
// all-on result. Running is what costs (mobilenet_v2 takes seconds per
// inference on a loaded machine), compiling is cheap.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string_view>

#include "ge/compiler.h"
#include "ge/ir/text_form.h"
#include "ge/runtime.h"
#include "ge/tools/compare.h"
#include "ge/tools/npy.h"
#include "ge_parsers/onnx_parser.h"
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

namespace fs = std::filesystem;

// "" = every pass on.
std::vector<std::string> Variants() {
  std::vector<std::string> v = {""};
  for (const PassInfo& p : ListPasses())
    if (!p.required) v.push_back(p.name);
  return v;
}

// The compiled graph, constants' bytes included.
std::string Fingerprint(const Graph& g) {
  std::string f = GraphToText(g);
  for (Node* n : g.nodes())
    if (const Tensor* t = n->GetTensor("value"))
      f += n->name() + "#" +
           std::to_string(std::hash<std::string_view>()(
               std::string_view(reinterpret_cast<const char*>(t->data()), t->size()))) + "\n";
  return f;
}

// Compiles with `disabled` off, runs once and compares; an empty string
// when it passes, else why not. `*fingerprint` receives the compiled
// graph's fingerprint; when it equals `skip_if`, the run is skipped.
std::string CompileRunCompare(const Graph& parsed, const std::string& disabled, const NpyArray& input,
                              const NpyArray& golden, const std::string& skip_if, std::string* fingerprint,
                              bool* ran) {
  *ran = false;
  CompileOptions co;
  co.model_name = parsed.name();
  co.framework = "onnx";
  if (!disabled.empty()) co.disabled_passes = {disabled};
  auto model = Compile(parsed.Clone(), co);
  if (!model.ok()) return "compile: " + model.status().message();
  *fingerprint = Fingerprint(*model->graph);
  if (!skip_if.empty() && *fingerprint == skip_if) return "";
  *ran = true;
  auto loaded = LoadModel(*model, RunMode::kV2);
  if (!loaded.ok()) return "load: " + loaded.status().message();
  const auto& ins = (*loaded)->inputs();
  const auto& outs = (*loaded)->outputs();
  if (ins.size() != 1 || outs.empty()) return "expected one input and an output";
  if (static_cast<int64_t>(input.bytes.size()) != ins[0].desc.Bytes())
    return "input holds " + std::to_string(input.bytes.size()) + " bytes, the model takes " + ins[0].desc.ToString();
  std::vector<std::vector<uint8_t>> out_bufs(outs.size());
  std::vector<void*> out_ptrs;
  for (size_t j = 0; j < outs.size(); ++j) {
    out_bufs[j].resize(static_cast<size_t>(std::max<int64_t>(outs[j].desc.Bytes(), 1)));
    out_ptrs.push_back(out_bufs[j].data());
  }
  Status s = (*loaded)->Execute({input.bytes.data()}, out_ptrs);
  if (!s.ok()) return "execute: " + s.message();
  CompareResult c = CompareTensors(outs[0].desc, out_bufs[0].data(), golden);
  if (!c.pass) return "compare: " + c.reason;
  return "";
}

class PassSwitchTest : public ReferenceModelParamFixture {};

TEST_P(PassSwitchTest, EveryPassOffStillMatchesTheGolden) {
  const std::string& name = name_;
  auto parsed = ParseOnnxFile(model_, ParseOptions{});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  (*parsed)->set_name(name);
  auto input = ReadNpy(input_);
  ASSERT_TRUE(input.ok()) << input.status().message();
  auto golden = ReadNpy(golden_);
  ASSERT_TRUE(golden.ok()) << golden.status().message();

  const auto t0 = std::chrono::steady_clock::now();
  int variants = 0, runs = 0;
  std::string all_on;
  for (const std::string& off : Variants()) {
    const std::string what = off.empty() ? "all passes on" : "pass " + off + " off";
    std::string fingerprint;
    bool ran = false;
    const std::string failure = CompileRunCompare(**parsed, off, *input, *golden, all_on, &fingerprint, &ran);
    EXPECT_EQ(failure, "") << name << " with " << what;
    if (off.empty()) all_on = fingerprint;
    ++variants;
    runs += ran;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("variants", variants);
  RecordProperty("runs", runs);
  RecordProperty("seconds", std::to_string(s));
}

INSTANTIATE_TEST_SUITE_P(Models, PassSwitchTest,
                         ::testing::Values("small_cnn", "resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder",
                                           "add_chain_1000"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace ge::test
