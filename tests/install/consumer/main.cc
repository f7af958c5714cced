// The installed package used end to end, through public headers only:
// parse an ONNX model, compile it, write and read back the .om, run it in
// both runtimes on the device the .om names, and compare with a golden.
//   ge_consumer MODEL.onnx INPUT.npy GOLDEN.npy WORK_DIR
#include <cstdio>
#include <string>
#include <vector>

#include "ge/compiler.h"
#include "ge/om.h"
#include "ge/runtime.h"
#include "ge/tools/compare.h"
#include "ge/tools/npy.h"
#include "ge_parsers/onnx_parser.h"
#include "hal/device.h"

namespace {

int Fail(const ge::Status& s) {
  std::fprintf(stderr, "ge_consumer: error: %s\n", s.message().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: ge_consumer MODEL.onnx INPUT.npy GOLDEN.npy WORK_DIR\n");
    return 2;
  }
  auto graph = ge::ParseOnnxFile(argv[1], ge::ParseOptions{});
  if (!graph.ok()) return Fail(graph.status());
  ge::CompileOptions options;
  options.model_name = "consumer";
  auto model = ge::Compile(std::move(graph).value(), options);
  if (!model.ok()) return Fail(model.status());
  const std::string om = std::string(argv[4]) + "/consumer.om";
  if (auto s = ge::WriteOmFile(*model, om); !s.ok()) return Fail(s);
  auto loaded_om = ge::ReadOmFile(om);
  if (!loaded_om.ok()) return Fail(loaded_om.status());
  auto input = ge::ReadNpy(argv[2]);
  if (!input.ok()) return Fail(input.status());
  auto golden = ge::ReadNpy(argv[3]);
  if (!golden.ok()) return Fail(golden.status());

  std::printf("devices:");
  for (const std::string& d : ge::hal::DeviceNames()) std::printf(" %s", d.c_str());
  std::printf("; the .om targets %s\n", loaded_om->model.target.c_str());
  for (ge::RunMode mode : {ge::RunMode::kV2, ge::RunMode::kSink}) {
    auto run = ge::LoadModel(loaded_om->model, mode);
    if (!run.ok()) return Fail(run.status());
    const ge::IoDesc& out = (*run)->outputs().at(0);
    std::vector<float> y(static_cast<size_t>(out.desc.NumElements()));
    if (auto s = (*run)->Execute({input->bytes.data()}, {y.data()}); !s.ok()) return Fail(s);
    ge::CompareResult r = ge::CompareTensors(out.desc, y.data(), *golden);
    std::printf("%s: max abs diff %.3g, cosine %.7f: %s\n", mode == ge::RunMode::kV2 ? "v2" : "sink", r.max_abs_diff,
                r.cosine, r.pass ? "PASS" : "FAIL");
    if (!r.pass) return 1;
  }
  return 0;
}
