// The compiler: IR in, compiled Model out. Runs the pass pipeline of
// DESIGN.md: prepare (shape inference with constant evaluation, support
// and static-shape checks), optimize and fusion passes (each switchable),
// then the planning stages.
#pragma once

#include <functional>
#include <optional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ge/aipp_config.h"
#include "ge/ir/graph.h"
#include "ge/ir/text_form.h"
#include "ge/model.h"

namespace ge {

// A pass of the caller's own, added to the pipeline after a named pass (a
// user's graph rewrite; ge-dump's bisect tests add a deliberately broken
// one). It is switchable like any optimisation pass.
struct ExtraPass {
  std::string after;  // name of the pass it runs after ("" = first)
  std::string name;
  std::function<Status(Graph&)> run;
};

// --dynamic_batch_size "1,2,4": every -1 dim (each a batch, dim 0) takes one
// value per gear. --dynamic_image_size "224,224;320,320": each dynamic input's
// two -1 dims take H then W. --dynamic_dims "1,40;2,40" (ND inputs): the -1
// dims of all inputs, in `order` (input names, --input_shape's order; empty:
// the graph's input order), take one value each.
struct GearOptions {
  enum class Kind { kNone, kBatch, kImageSize, kDims } kind = Kind::kNone;
  std::vector<std::vector<int64_t>> values;  // per gear
  std::vector<std::string> order;
};
inline constexpr size_t kMaxGears = 100;  // ATC's limit

// The input dims of every gear: per gear, per graph input (the Data nodes in
// index order), its dims. An error names the flag and the input at fault.
Result<std::vector<std::vector<std::vector<int64_t>>>> ResolveGears(const Graph& graph, const GearOptions& gears);
const char* GearFlagName(GearOptions::Kind kind);

struct CompileOptions {
  std::string model_name;
  std::string framework;      // "onnx" | "tensorflow"
  std::string source_sha256;  // of the source file, stored in the .om
  // Flags worth recording in the .om (key, value).
  std::vector<std::pair<std::string, std::string>> recorded_options;
  // Runs the verifier after every pass (tests, --log debug).
  bool verify_each_pass = false;
  // The HAL device that will run the model, by its registered name
  // (hal::GetDevice): its kernels and capabilities decide support, layouts
  // and streams, and the name is recorded in the Model (Model::target).
  // Empty: the default device.
  std::string device;
  // Called after each pass with its name and the graph (ge-dump).
  std::function<void(const std::string& pass, const Graph& g)> after_pass;
  // Called after each planning stage of the root model (stream_assignment,
  // memory_planning, task_building, model_check) with what it decided, one
  // paragraph (ge-dump). Not called for a dynamic model's partitions.
  std::function<void(const std::string& stage, const std::string& report)> after_plan_stage;
  // Switchable passes to skip (--disable_pass, fusion switch file). An
  // unknown or required name is an error.
  std::vector<std::string> disabled_passes;
  std::vector<ExtraPass> extra_passes;
  // Memory planning: reuse feature-map memory between tensors whose
  // lifetimes do not overlap (--buffer_optimize off: every tensor its own).
  bool buffer_reuse = true;
  int64_t memory_alignment = 64;
  // Streams (--stream_num): independent branches run on up to this many
  // streams, ordered by events (docs/streams.md). 1: one stream, no events.
  // At most the backend's Capabilities::max_streams.
  int32_t stream_num = 1;
  // The activation layout (hal TensorInfo::channel_block) for the target
  // CPU (--soc_version); unset: the device's own preference.
  std::optional<int32_t> channel_block;
  // The memory limit (--max_memory) in bytes; 0: the machine's memory. A
  // tensor, segment or model total above it is an error naming it, so that
  // nothing is written that a loader would refuse (ge/plan/memory_limit.h).
  int64_t max_memory = 0;
  // Static AIPP (--insert_op_conf): one Aipp node per entry in front of the
  // input it names; aipp_nhwc says the model's image inputs are NHWC
  // (--input_format, TensorFlow's default), else NCHW.
  std::vector<AippConfig> aipp;
  bool aipp_nhwc = false;
  // Model IO dtypes (--input_fp16_nodes, --output_type): the named float32
  // inputs take float16 (a Cast to float32 follows them); outputs are cast
  // to `dtype` before NetOutput. An OutputType with an empty node applies
  // to every float32 output; node and index name one output's producer.
  struct OutputType {
    std::string node;
    int64_t index = 0;
    DataType dtype = DataType::kFloat32;
  };
  std::vector<OutputType> output_types;
  std::vector<std::string> fp16_inputs;
  // Constant folding never creates a constant larger than this.
  int64_t fold_limit_bytes = 1 << 20;
  // ATC's gears: one static plan per set of values for the inputs' unknown
  // (-1) dims, all in one model, the gear picked per call by the input dims
  // (docs/dynamic-shapes.md#gears).
  GearOptions gears;
  // Control flow (--control_flow): an If or Loop whose subgraphs are all
  // static joins the static plan, each subgraph planned and linked into
  // label tasks (sink mode runs it, loops included, in one call); false
  // leaves every control-flow node to the v2 runtime's converters (the model
  // is dynamic). docs/control-flow.md.
  bool sink_control_flow = true;
  // Reduced precision (--precision_mode, docs/precision.md). kMixBf16
  // (allow_mix_precision) runs the white-list ops (convolutions and matrix
  // products) in bfloat16, and the gray-list ops that read their results
  // when the device's kernels take bf16; black-list ops (norms, softmax,
  // reductions, everything else) stay float32, with Casts at the borders.
  // Needs a device with native bf16 (Capabilities::bf16).
  struct Precision {
    enum Mode { kFp32, kMixBf16 } mode = kFp32;
    // --keep_dtype: node names and op types that keep float32.
    std::set<std::string> keep_nodes, keep_types;
    // --modify_mixlist: op types added to / removed from the default lists.
    std::set<std::string> white_add, white_remove, gray_add, gray_remove, black_add, black_remove;
  };
  Precision precision;
};

// ATC's --modify_mixlist JSON ({"allow_mix_precision": {"white-list":
// {"to-add": [...], "to-remove": [...]}, "gray-list": ..., "black-list": ...}})
// and --keep_dtype file (lines "OpName::conv1" or "OpType::Conv") into p.
// Errors name the file and the entry.
Status ReadMixList(const std::string& path, CompileOptions::Precision* p);
Status ReadKeepDtype(const std::string& path, CompileOptions::Precision* p);
// The op types a mixed precision mode computes in bf16 under p: the white
// list after --modify_mixlist (--keep_dtype's nodes and types aside).
std::set<std::string> MixedPrecisionWhiteList(const CompileOptions::Precision& p);

Result<Model> Compile(std::unique_ptr<Graph> graph, const CompileOptions& options);

// Symbolic dims of a dynamic graph: a name for every unknown dim of a node
// output that is tied to the inputs' unknown dims ("batch": an ONNX
// dim_param, equal names one dim; else "x.0" for dim 0 of input x;
// "2*batch", "batch*seq", "seq+1"; "?" for none). Found by inferring the
// graph with concrete values for the input dims; ge-dump prints them.
Result<DimNames> InferSymbolicDims(const Graph& g);

struct PassInfo {
  std::string name;
  std::string stage;
  bool required = false;  // cannot be switched off
  bool fusion = false;    // may be named in a fusion switch file
  bool planning = false;  // a planning stage: runs after the graph passes, never changes the graph
};
// The passes Compile() runs, in order (extra passes not included): the
// graph passes, then the planning stages.
std::vector<PassInfo> ListPasses();
// The graph passes' names, in order: the ones ge-dump dumps a graph after
// and an extra pass may follow (the planning stages are not among them).
std::vector<std::string> PassNames();

// Reads an ATC-style fusion switch file and returns the fusion passes it
// switches off. Accepted forms (values "on" / "off"; "ALL" sets the default
// for the fusion passes not named):
//   {"Switch": {"GraphFusion": {"conv_bn_fold": "off", "ALL": "on"}, "UBFusion": {...}}}
//   {"conv_bn_fold": "off"}
// Errors name the file and the entry (unknown pass, not a fusion pass, bad value).
Result<std::vector<std::string>> ReadFusionSwitchFile(const std::string& path);

}  // namespace ge
