// The IR's own ops: graph inputs, graph outputs and constants.
#include "ops/infer_util.h"
#include "ops/op_families.h"

namespace ge {

void RegisterIrOps(OpRegistry& r) {
  // The parser (or the user's input shape override) sets a Data node's desc;
  // inference keeps it.
  r.Register(OpBuilder(op::kData).Inputs(0, 0).Defaults({{"index", int64_t{0}}}));
  // Takes every graph output, produces nothing.
  r.Register(OpBuilder(op::kNetOutput).Inputs(1, -1).Outputs(0, 0));
  r.Register(OpBuilder(op::kConst).Inputs(0, 0).Infer([](InferContext& ctx) -> Status {
    const Tensor* v = ctx.node().GetTensor("value");
    if (!v) return ctx.Error("has no 'value' tensor");
    ctx.output(0) = v->desc();
    return Status::Ok();
  }));
}

}  // namespace ge
