// What the planning stages of the compiler decide and the .om stores: where
// every tensor lives (memory plan) and what each stream runs (task lists).
// Both runtimes take their memory from the plan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/ir/tensor_desc.h"
#include "ge_base/status.h"

namespace ge {

// A memory segment is one allocation made at load; buffers are offsets in it.
enum class Segment : int32_t {
  kWeights = 0,     // Const tensors (the .om weights section)
  kFeatureMap = 1,  // intermediate tensors, reused between disjoint lifetimes
  kInput = 2,       // model inputs: user buffers bound zero-copy, or a copy
  kOutput = 3,      // model outputs: likewise
};
const char* SegmentName(Segment s);

// One tensor (a node output). Outputs that reference or reuse another
// tensor's memory (Reshape, Identity, in-place) share its symbol and its
// address.
struct BufferPlan {
  std::string node;
  int32_t output = 0;
  int64_t symbol = 0;  // buffers with the same symbol share one address
  Segment segment = Segment::kFeatureMap;
  int64_t offset = 0;  // within the segment, aligned
  int64_t size = 0;    // bytes of the tensor
  // Lifetime over the execution order: produced at step first_use, last
  // read at step last_use (inclusive).
  int32_t first_use = 0;
  int32_t last_use = 0;
};

// An address a task reads or writes: (segment, offset). For kInput/kOutput
// the offset is within that IO segment. offset -1: an absent optional input.
struct TaskArg {
  Segment segment = Segment::kFeatureMap;
  int64_t offset = 0;
};

// A model input or output: the user's buffer is [offset, offset + size) of
// the kInput / kOutput segment and is bound zero-copy. An output that cannot
// be computed into the user's buffer (it is a model input, a constant, or a
// tensor already bound to another output) has copy = true: after the run
// its bytes are copied from `source`.
struct IoBinding {
  int64_t offset = 0;
  int64_t size = 0;
  bool copy = false;
  TaskArg source;
};

struct MemoryPlan {
  int64_t alignment = 64;
  bool reuse = true;  // --buffer_optimize
  // Segment sizes in bytes.
  int64_t weights_size = 0;
  int64_t feature_map_size = 0;  // the peak the planner achieved
  int64_t input_size = 0;
  int64_t output_size = 0;
  // Report: the feature-map bytes with no reuse at all, and the lower bound
  // (the largest total of feature-map bytes alive at one step).
  int64_t no_reuse_size = 0;
  int64_t lower_bound = 0;
  std::vector<std::string> order;  // execution order: node names, step = index
  std::vector<BufferPlan> buffers;
  std::vector<IoBinding> inputs, outputs;  // in the order of Model::inputs / outputs
  bool empty() const { return buffers.empty(); }
  // Bytes of segment `s`; -1 for a value that names no segment (a corrupt model).
  int64_t SegmentSize(Segment s) const;
  // [offset, offset + size) lies inside segment `s` (offset and size >= 0).
  // The .om reader and the runtimes check every address with it.
  bool Contains(Segment s, int64_t offset, int64_t size) const;
};

// One line for people: "feature map 3.1 MiB (lower bound 3.0 MiB, no reuse
// 12.4 MiB), weights 44.6 MiB, io 0.6 MiB".
std::string MemoryReport(const MemoryPlan& plan);

struct Task {
  // Label kinds appear in linked task lists only (ge/plan/link.h): a .om
  // stores each control-flow node as one kernel task plus its subgraphs'
  // plans, and the loader links them into GE's label tasks.
  enum class Kind : int32_t {
    kKernel = 0,
    kEventRecord = 1,
    kEventWait = 2,
    kLabelSet = 3,
    kLabelGoto = 4,
    kLabelSwitch = 5,
  } kind = Kind::kKernel;
  std::string node;     // the node a kernel task runs
  // Kernel id: index into the model's kernel table, one kernel per kernel
  // task, numbered in task order. Nodes whose outputs all alias an input
  // (Reshape, Identity ...) have no task: the plan already gives them the
  // input's address.
  int32_t kernel = 0;
  int32_t event = -1;   // event id for record/wait
  std::vector<TaskArg> inputs, outputs;
  // Linked task lists only. LabelSet / LabelGoto: `label`; LabelSwitch:
  // `labels`, and inputs[0] holds the int32 index. A kernel task with `op`
  // set runs a control kernel that has no node (MemcpyAsync, BranchIndex,
  // LoopInit, LoopCondIndex, LoopIncrement, ScanSliceWrite, LoopTripCheck:
  // hal/cpu/kernels/control_kernels.cc),
  // created from `op` and the descs of its arguments.
  int32_t label = -1;
  std::vector<int32_t> labels;
  std::string op;
  std::vector<TensorDesc> in_descs, out_descs;
  int64_t count = 0;  // LoopTripCheck: the trip count the plan was made for
};

struct StreamTasks {
  int32_t stream = 0;
  std::vector<Task> tasks;
};

// Event tasks (kind record/wait) carry `event`, numbered 0..E-1 (E = the
// largest id + 1), `node` naming the kernel they follow (record) or precede
// (wait), kernel -1 and no arguments. The kernel ids of kernel tasks run
// 0, 1, 2 ... over stream 0's tasks, then stream 1's, and so on.
//
// Checks a schedule's event graph: streams numbered 0..S-1 in order, event
// ids >= 0, each recorded exactly once, every wait's event recorded, and no
// cycle of waits (the streams replayed as the runtime runs them never get
// stuck). The error names the streams, tasks and events of the cycle. The
// compiler runs it on what it builds, the .om loader on what it reads.
Status CheckEventGraph(const std::vector<StreamTasks>& streams);

// One wait of a deadlock: the wait task (stream, index) and the record of
// the event it waits for, which another stuck stream never reaches.
struct CycleWait {
  int32_t stream = 0, index = 0;                // the wait task
  int32_t event = -1;
  int32_t record_stream = 0, record_index = 0;  // the event's record task
  std::string wait_node, record_node;           // the tasks' `node`: the kernel the wait precedes, the record follows
};
// The cycle of waits that would deadlock the streams (ge-lint E18004),
// empty when every stream runs to its end. Fails on the event graph's other
// errors (an event recorded twice, a wait for an event nobody records).
Result<std::vector<CycleWait>> FindWaitCycle(const std::vector<StreamTasks>& streams);

}  // namespace ge
