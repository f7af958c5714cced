// .ge files: the IR's text form (ge/ir/text_parse.h) as a model source, how
// lint repro cases and hand-written test graphs are given to the tools.
#pragma once

#include <memory>
#include <string>

#include "ge/compiler.h"
#include "ge/ir/graph.h"
#include "ge/model.h"

namespace ge::app {

// True for a path ending in ".ge".
bool IsGraphTextPath(const std::string& path);
// Parses a .ge; errors name the file and line.
Result<std::unique_ptr<Graph>> LoadGraphText(const std::string& path);
// Parses and compiles a .ge as ge-atc compiles a parsed ONNX model.
Result<Model> CompileGraphText(const std::string& path, CompileOptions options);

}  // namespace ge::app
