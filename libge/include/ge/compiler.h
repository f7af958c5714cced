// The compiler: IR in, compiled Model out. Runs the pass pipeline of
// DESIGN.md (today: prepare — shape inference with constant evaluation, the
// backend support check, the static-shape check).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ge/ir/graph.h"
#include "ge/model.h"

namespace ge {

namespace hal {
class Device;
}

struct CompileOptions {
  std::string model_name;
  std::string framework;      // "onnx" | "tensorflow"
  std::string source_sha256;  // of the source file, stored in the .om
  // Flags worth recording in the .om (key, value).
  std::vector<std::pair<std::string, std::string>> recorded_options;
  // Runs the verifier after every pass (tests, --log debug).
  bool verify_each_pass = false;
  // The backend that will run the model; nullptr: the CPU.
  hal::Device* device = nullptr;
  // Called after each pass with its name and the graph (ge-dump).
  std::function<void(const std::string& pass, const Graph& g)> after_pass;
};

Result<Model> Compile(std::unique_ptr<Graph> graph, const CompileOptions& options);

// Names of the passes Compile() runs, in order.
std::vector<std::string> PassNames();

}  // namespace ge
