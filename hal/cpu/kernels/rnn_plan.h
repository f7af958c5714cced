// What the recurrent kernels (ONNX LSTM, GRU, RNN) compute, read once from
// the spec: sizes, direction, layout, which optional inputs are present and
// the activation of every gate. Both implementations work from it: oneDNN's
// RNN primitives (rnn_kernels.cc) for what they can express, the reference
// loop (rnn_reference.cc) for everything else.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "hal/kernel.h"

namespace ge::hal::rnn {

enum class Cell { kLstm, kGru, kRnn };

// The ONNX inputs by position.
enum Input { kX = 0, kW, kR, kB, kSeqLens, kInitH, kInitC, kP };

// One activation function of the ONNX spec with its alpha and beta.
struct Act {
  enum Kind { kRelu, kTanh, kSigmoid, kAffine, kLeakyRelu, kThresholdedRelu, kScaledTanh, kHardSigmoid, kElu,
              kSoftsign, kSoftplus } kind = kTanh;
  float alpha = 0, beta = 0;
};
float Apply(const Act& a, float x);

struct Plan {
  Cell cell = Cell::kLstm;
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, dirs = 1;
  int64_t gates = 4;          // 4 LSTM, 3 GRU, 1 RNN
  bool reverse = false;       // direction "reverse" (dirs == 1)
  bool batch_first = false;   // layout 1
  bool linear_before_reset = false, input_forget = false;
  std::optional<float> clip;
  // Per direction, in ONNX order: LSTM f, g, h; GRU f, g; RNN f.
  std::vector<Act> acts;
  size_t num_acts = 3;        // per direction
  bool has[8] = {};           // which inputs are present
  DataType lens_type = DataType::kInt32;
  size_t num_outputs = 1;

  const Act& act(int64_t dir, size_t k) const { return acts[static_cast<size_t>(dir) * num_acts + k]; }
  // Element offsets of X (t, b), Y (t, d, b) and a state (d, b) rows.
  int64_t XRow(int64_t t, int64_t b) const { return batch_first ? b * seq + t : t * batch + b; }
  int64_t YRow(int64_t t, int64_t d, int64_t b) const {
    return batch_first ? (b * seq + t) * dirs + d : (t * dirs + d) * batch + b;
  }
  int64_t StateRow(int64_t d, int64_t b) const { return batch_first ? b * dirs + d : d * batch + b; }
};

// Reads and checks the spec: f32 tensors of static shapes, every shape as
// ONNX defines it, known activation names.
Result<Plan> MakePlan(const KernelSpec& spec);

// The lengths per batch entry (sequence_lens, or seq for all when absent).
void ReadLengths(const Plan& p, const void* lens, std::vector<int64_t>& out);

// The ONNX semantics in plain loops: any activation, clip, input_forget,
// peepholes, per-entry sequence lengths (Y is zero past an entry's end, Y_h
// and Y_c hold its last valid step). `scratch` is resized as needed.
Status RunReference(const Plan& p, const void* const* in, void* const* out, std::vector<float>& scratch);

}  // namespace ge::hal::rnn
