#include "common/text_model.h"

#include "ge/ir/text_parse.h"
#include "ge_base/sha256.h"

namespace ge::app {

bool IsGraphTextPath(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".ge") == 0; }

Result<std::unique_ptr<Graph>> LoadGraphText(const std::string& path) { return ReadGraphTextFile(path); }

Result<Model> CompileGraphText(const std::string& path, CompileOptions options) {
  GE_ASSIGN_OR_RETURN(auto graph, ReadGraphTextFile(path));
  GE_ASSIGN_OR_RETURN(options.source_sha256, Sha256File(path));
  options.framework = "ge";
  auto model = Compile(std::move(graph), options);
  if (!model.ok()) return model.status().Annotated(path);
  return model;
}

}  // namespace ge::app
