// Ops that move values between space and batch or depth, on NCHW:
//   SpaceToBatchND, BatchToSpaceND → the IR ops of the same name (NCHW, two
//     spatial dims; constant block_shape, paddings / crops). atrous_conv
//     folds SpaceToBatchND → Conv → BatchToSpaceND into one dilated Conv.
//   DepthToSpace, SpaceToDepth → Reshape, Transpose, Reshape (TF's order is
//     ONNX's DCR: depth index (i*b + j)*C + c). A NHWC value held as NCHW
//     and a NCHW one move alike, so both stay NCHW.
#include "tf_attrs.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

namespace {

// block_shape (input 1) and paddings / crops (input 2) as the IR's attrs.
Status MapSpaceBatch(const tf::NodeDef& n, TfGraphBuilder& b, bool to_batch) {
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> block, ConstInts(n, b, 1, "block_shape"));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> p, ConstInts(n, b, 2, to_batch ? "paddings" : "crops"));
  if (block.size() != 2 || p.size() != 4)
    return NodeUnsupported(n, "only two spatial dims are supported (block_shape [2], paddings [2, 2])");
  GE_ASSIGN_OR_RETURN(Endpoint x, WindowInput(n, b, true));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, to_batch ? "SpaceToBatchND" : "BatchToSpaceND", {x},
                                     {{"block_shape", block},
                                      {to_batch ? "pads" : "crops", std::vector<int64_t>{p[0], p[2], p[1], p[3]}}}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, true});
  return Status::Ok();
}

Status MapDepthSpace(const tf::NodeDef& n, TfGraphBuilder& b, bool to_space) {
  GE_ASSIGN_OR_RETURN(int64_t bs, AttrInt(n, "block_size"));
  if (bs < 2) return NodeError(n, "block_size must be at least 2");
  GE_ASSIGN_OR_RETURN(bool nhwc, IsNhwc(n));
  GE_ASSIGN_OR_RETURN(Endpoint x, WindowInput(n, b, nhwc));
  const std::vector<int64_t> d = b.Desc(x).dims;  // N, C, H, W
  if (d[1] < 0 || d[2] < 0 || d[3] < 0) return NodeUnsupported(n, "needs known channels and spatial dims");
  std::vector<int64_t> split, perm, joined;
  if (to_space) {
    if (d[1] % (bs * bs) != 0) return NodeError(n, "depth " + std::to_string(d[1]) + " is not a multiple of block_size²");
    const int64_t c = d[1] / (bs * bs);
    split = {-1, bs, bs, c, d[2], d[3]};
    perm = {0, 3, 4, 1, 5, 2};
    joined = {-1, c, d[2] * bs, d[3] * bs};
  } else {
    if (d[2] % bs != 0 || d[3] % bs != 0) return NodeError(n, "height and width must be multiples of block_size");
    split = {-1, d[1], d[2] / bs, bs, d[3] / bs, bs};
    perm = {0, 3, 5, 1, 2, 4};
    joined = {-1, d[1] * bs * bs, d[2] / bs, d[3] / bs};
  }
  GE_ASSIGN_OR_RETURN(Node* r, b.Add(n, "Reshape", {x, b.AddInt64s(n, "split_shape", split)}, {}, "split"));
  GE_ASSIGN_OR_RETURN(Node* t, b.Add(n, "Transpose", {Endpoint{r, 0}}, {{"perm", perm}}, "move"));
  GE_ASSIGN_OR_RETURN(Node* y, b.Add(n, "Reshape", {Endpoint{t, 0}, b.AddInt64s(n, "joined_shape", joined)}));
  b.Define(n, 0, TfValue{Endpoint{y, 0}, nhwc});
  return Status::Ok();
}

}  // namespace

void AddSpaceMappers(OpMapperTable& t) {
  t["SpaceToBatchND"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapSpaceBatch(n, b, true); };
  t["BatchToSpaceND"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapSpaceBatch(n, b, false); };
  t["DepthToSpace"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapDepthSpace(n, b, true); };
  t["SpaceToDepth"] = [](const tf::NodeDef& n, TfGraphBuilder& b) { return MapDepthSpace(n, b, false); };
}

}  // namespace ge::tf_parser
