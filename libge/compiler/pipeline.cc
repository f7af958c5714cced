// The pass pipeline of Compile(), stage by stage (DESIGN.md "Compiler").
// Each stage's passes live in libge/compiler/passes/ (one file per pass).
#include "compiler/pass.h"

namespace ge {

PassManager BuildPipeline() {
  PassManager pm;
  // prepare. Unknown op types are listed (all of them) before inference
  // needs them; support is checked before the static-shape check so a model
  // with both problems reports every unsupported op first.
  pm.Add(CheckKnownOpsPass());
  pm.Add(InferShapesPass());
  pm.Add(CheckSupportPass());
  pm.Add(StaticShapeCheckPass());

  // optimize

  // fusion

  return pm;
}

}  // namespace ge
