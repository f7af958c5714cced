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
void AddNnMappers(OpMapperTable& t);       // Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput, BiasAdd, FusedBatchNorm*, pools
void AddMathMappers(OpMapperTable& t);     // activations, binary arithmetic, MatMul, reductions, Softmax, Cast
void AddArrayMappers(OpMapperTable& t);    // ConcatV2, Reshape, Squeeze, ExpandDims, Pad, Transpose, Shape, Pack
void AddStridedSliceMapper(OpMapperTable& t);
void AddArithMappers(OpMapperTable& t);    // rounding, activations, Rsqrt, Square, Pow, AddN, Mod, FloorDiv, ClipByValue
void AddLogicMappers(OpMapperTable& t);    // comparisons, Logical*, Select(V2), All, Any, ArgMax, ArgMin
void AddResizeMappers(OpMapperTable& t);   // ResizeBilinear, ResizeNearestNeighbor
void AddSpaceMappers(OpMapperTable& t);    // SpaceToBatchND, BatchToSpaceND, DepthToSpace, SpaceToDepth
void AddBatchMatMulMappers(OpMapperTable& t);  // BatchMatMul, V2, V3
void AddIndexMappers(OpMapperTable& t);    // GatherV2, GatherNd, OneHot, TopKV2, Cumsum
void AddShapeMappers(OpMapperTable& t);    // Range, Fill, Zeros/OnesLike, Tile, BroadcastTo, Split(V), Unpack, Slice, ReverseV2
void AddScatterMappers(OpMapperTable& t);  // Where (one input), Unique*, ScatterNd, TensorScatter*, (Unsorted)Segment*
void AddDetectionMappers(OpMapperTable& t);  // NonMaxSuppression*, CropAndResize
void AddVolumeMappers(OpMapperTable& t);   // Conv3D, MaxPool3D, AvgPool3D
void AddLinalgMappers(OpMapperTable& t);   // Einsum, MatrixBandPart, MatrixDiag

// ---- helpers the families share ----

// data_format "NHWC" (TF's default) or "NCHW"; anything else is Unsupported.
Result<bool> IsNhwc(const tf::NodeDef& n);
// The int values of a constant data input (axes, paddings, perm, shape);
// Unsupported when the input is not a constant.
Result<std::vector<int64_t>> ConstInts(const tf::NodeDef& n, TfGraphBuilder& b, int input, const std::string& what);
// A constant data input holding one integer (an axis, a dimension).
Result<int64_t> ScalarInt(const tf::NodeDef& n, TfGraphBuilder& b, int input, const std::string& what);
// Data input 0 of a 4-D op in NCHW, the layout the IR's window and space
// ops read: NHWC graphs (nhwc) take it NCHW-held, NCHW graphs as they are.
Result<Endpoint> WindowInput(const tf::NodeDef& n, TfGraphBuilder& b, bool nhwc);
// A conv filter (data input 1) in the IR's order: TF's dims permuted by
// `perm` and reshaped to final_dims. Constants are reordered here, once; a
// computed filter gets a Transpose (and Reshape) node.
Result<Endpoint> ReorderedFilter(const tf::NodeDef& n, TfGraphBuilder& b, const std::vector<int64_t>& perm,
                                 const std::vector<int64_t>& final_dims);
// axis in [-rank, rank) made non-negative; unknown rank is Unsupported.
Result<int64_t> NormalizeAxis(const tf::NodeDef& n, int64_t axis, int64_t rank);
// Data input `input` (a shape, multiples) as an int64 operand: constants
// become int64 constants named `what`, computed ones get a Cast.
Result<Endpoint> Int64Input(const tf::NodeDef& n, TfGraphBuilder& b, int input, const std::string& what);
// ONNX TensorProto element type of a ge dtype (the "to" of Cast), -1 if none.
int64_t OnnxElemType(DataType t);
// The TF dtype attribute `attr` as a ge dtype; Unsupported when ge has none.
Result<DataType> DtypeAttr(const tf::NodeDef& n, const std::string& attr);
// A scalar constant `value` of dtype dt (float, double, int8..int64, uint8,
// uint16, bool); Unsupported for other dtypes.
Result<Endpoint> AddScalar(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& suffix, DataType dt,
                           double value);
// ConstantOfShape(shape) holding 0, 1, or dt's lowest or highest value
// (the identities of sum, product, max and min) for f32, f64, i32, i64.
enum class Fill { kZero, kOne, kLowest, kHighest };
Result<Endpoint> Filled(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint shape, DataType dt, Fill fill,
                        const std::string& suffix);
// `e` cast to dt (itself when it has that dtype already); the Cast is named "<n>/<suffix>".
Result<Endpoint> CastTo(const tf::NodeDef& n, TfGraphBuilder& b, Endpoint e, DataType dt, const std::string& suffix);

// ---- elementwise ops (tf_elementwise.cc) ----

// n's data inputs; exactly `arity` of them (any number >= 1 when arity < 0).
Result<std::vector<TfValue>> DataInputs(const tf::NodeDef& n, TfGraphBuilder& b, int arity);
// One elementwise IR node over `ins` with numpy broadcasting. It runs NCHW
// (its result held as NCHW) when an operand is held so and the others can
// be broadcast like it; otherwise in TF's layout. suffix as TfGraphBuilder::Add.
Result<TfValue> AddElementwise(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type,
                               const std::vector<TfValue>& ins, std::map<std::string, AttrValue> attrs = {},
                               const std::string& suffix = "");
// n → one elementwise `type` node over its data inputs; and that as a table entry.
Status MapElementwise(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type, int arity,
                      std::map<std::string, AttrValue> attrs = {});
OpMapper Elementwise(const std::string& type, int arity, std::map<std::string, AttrValue> attrs = {});
// n → then(first(inputs)), the first node named "<n>/<suffix>"; with
// `twice`, `then` takes the intermediate as both operands (Mul(d, d)).
OpMapper Composed(const std::string& first, const std::string& suffix, const std::string& then, int arity,
                  bool twice = false);

// Mean/Sum/Max/Min/Prod/All/Any: x reduced over the constant
// reduction_indices (input 1) with keep_dims, as the IR reduction `type`.
Status MapReduce(const tf::NodeDef& n, TfGraphBuilder& b, const std::string& type);

}  // namespace ge::tf_parser
