// ge-run's inputs: --input resolved into input sets (one per inference,
// ge/tools/input_sets.h), or generated data when there is no --input
// (--pure_data_type zero|random), staged into aligned buffers the runtime
// reads directly (zero-copy in sink mode).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/runtime.h"
#include "ge/tools/input_sets.h"

namespace ge::run {

// 64-byte aligned, zeroed bytes: the sink runtime binds such buffers
// zero-copy. data is null when memory is short (AppendBuffer reports it).
struct AlignedBytes {
  explicit AlignedBytes(size_t n);
  ~AlignedBytes();
  AlignedBytes(AlignedBytes&& o) noexcept : size(o.size), data(o.data) { o.data = nullptr; }
  AlignedBytes(const AlignedBytes&) = delete;
  size_t size;
  uint8_t* data = nullptr;
};

// Appends a buffer of n bytes (at least 1); an error naming `what` when it cannot be had.
Status AppendBuffer(std::vector<AlignedBytes>& bufs, size_t n, const std::string& what);

// What --input and --pure_data_type ask for.
struct InputPlan {
  std::vector<tools::InputSet> sets;  // empty: one inference on generated data
  bool random = true;                 // generated data: random (seeded) or zeros
  uint32_t seed = 0;
  bool from_directories = false;
  size_t inferences() const { return sets.empty() ? 1 : sets.size(); }
};

// --input "" or "random" -> generated data; otherwise files or directories,
// one per model input. Errors name --input and the entry at fault.
Result<InputPlan> PlanInputs(const std::string& input_flag, const std::vector<IoDesc>& inputs);

// One buffer per model input, filled for input set k.
class InputBuffers {
 public:
  static Result<InputBuffers> Allocate(const std::vector<IoDesc>& inputs);
  // Reads set k (or generates data) into the buffers; errors name --input,
  // the file and the model input. Returns the time spent copying into the
  // buffers (ms), what ge-run reports as H2D latency.
  Result<double> Fill(const InputPlan& plan, size_t k, const std::vector<IoDesc>& inputs);
  const std::vector<const void*>& ptrs() const { return ptrs_; }
  const std::vector<DataBuffer>& bufs() const { return bufs_; }

 private:
  std::vector<AlignedBytes> data_;
  std::vector<const void*> ptrs_;
  std::vector<DataBuffer> bufs_;
};

// --dymShape "x:1,8;y:2,3" (ais_bench's name): the dims of a dynamic
// model's inputs for generated data and raw files. Names must be model
// inputs, dims known and fitting the input. Errors name the flag.
using DymShapes = std::map<std::string, std::vector<int64_t>>;
Result<DymShapes> ParseDymShape(const std::string& flag, const std::vector<IoDesc>& inputs,
                                const std::string& name = "--dymShape");

// The gear flags (msame's and ais_bench's names) as dims for the inputs
// they set: --dymBatch N (0: none) sets every input whose only -1 dim is
// dim 0; --dymHW H,W every input with exactly two -1 dims; --dymDims
// "x:1,40;y:1,40" is --dymShape's form. Merged into `dims`; the error names
// the flag.
Status ApplyGearFlags(int64_t dym_batch, const std::string& dym_hw, const std::string& dym_dims,
                      const std::vector<IoDesc>& inputs, DymShapes& dims);

// A dynamic model's inputs (ExecuteShaped): each input read with its file's
// own dims, or generated with the dims --dymShape gives.
class ShapedInputs {
 public:
  // As InputBuffers::Fill; a dynamic input without a file or --dymShape
  // dims is an error naming it.
  Result<double> Fill(const InputPlan& plan, size_t k, const std::vector<IoDesc>& inputs, const DymShapes& dims);
  const std::vector<TensorView>& views() const { return views_; }

 private:
  std::vector<AlignedBytes> data_;
  std::vector<TensorView> views_;
};

}  // namespace ge::run
