// The TF op → IR mappings, one function per TF op type, grouped by family in
// tf_ops_*.cc. A mapper reads the NodeDef, adds IR nodes through the builder
// and defines the node's outputs. The table is the single list of what the
// parser supports: the pre-check (--mode 3) reports every op not in it.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "tf_graph_builder.h"

namespace ge::tf_parser {

using OpMapper = std::function<Status(const tf::NodeDef&, TfGraphBuilder&)>;
using OpMapperTable = std::map<std::string, OpMapper>;

const OpMapperTable& OpMappers();

void AddIoMappers(OpMapperTable& t);       // Placeholder, Const, Identity, StopGradient, Snapshot, NoOp
void AddNnMappers(OpMapperTable& t);       // Conv2D, DepthwiseConv2dNative, BiasAdd, FusedBatchNorm*, pools
void AddMathMappers(OpMapperTable& t);     // activations, binary arithmetic, MatMul, reductions, Softmax, Cast
void AddArrayMappers(OpMapperTable& t);    // ConcatV2, Reshape, Squeeze, ExpandDims, Pad, Transpose, Shape, Pack
void AddStridedSliceMapper(OpMapperTable& t);

// ---- helpers the families share ----

// data_format "NHWC" (TF's default) or "NCHW"; anything else is Unsupported.
Result<bool> IsNhwc(const tf::NodeDef& n);
// The int values of a constant data input (axes, paddings, perm, shape);
// Unsupported when the input is not a constant.
Result<std::vector<int64_t>> ConstInts(const tf::NodeDef& n, TfGraphBuilder& b, int input, const std::string& what);
// ONNX TensorProto element type of a ge dtype (the "to" of Cast), -1 if none.
int64_t OnnxElemType(DataType t);
// The TF dtype attribute `attr` as a ge dtype; Unsupported when ge has none.
Result<DataType> DtypeAttr(const tf::NodeDef& n, const std::string& attr);

}  // namespace ge::tf_parser
