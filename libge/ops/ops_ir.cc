// The IR's own ops: graph inputs, graph outputs, constants, and TransData
// (a layout change the compiler's layout stage inserts).
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

// TransData keeps dtype and dims and sets the format named by "dst_format".
Status InferTransData(InferContext& ctx) {
  const std::string name = ctx.node().GetString("dst_format");
  for (int32_t f = 0; f <= static_cast<int32_t>(kLastFormat); ++f) {
    if (name != FormatName(static_cast<Format>(f))) continue;
    ctx.output(0) = ctx.input(0);
    ctx.output(0).format = static_cast<Format>(f);
    return Status::Ok();
  }
  return ctx.Error("dst_format '" + name + "' is not a format");
}

}  // namespace

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
  r.Register(OpBuilder("TransData").Inputs(1, 1).Infer(InferTransData));
  // A known-shape cluster of a dynamic model (the partitioner makes them):
  // its descs are its subgraph's IO, set when it is made.
  r.Register(OpBuilder(op::kPartitionedCall).Inputs(0, -1).Outputs(0, -1));
  // ATC's gears: the descs are the gears' IO, a dim that differs between
  // gears unknown (-1); set when it is made (compiler/gears).
  r.Register(OpBuilder(op::kGearCase).Inputs(1, -1).Outputs(1, -1));
}

}  // namespace ge
