#include "kernels/rnn_plan.h"

#include <cmath>
#include <map>

#include "kernels/loop_common.h"

namespace ge::hal::rnn {
namespace {

using loop::Bad;
using loop::DimsStr;
using loop::NotSupported;

// Name, kind, and the defaults of alpha and beta (onnxruntime's, which are
// the ONNX operators' of the same name).
struct ActDef {
  Act::Kind kind;
  bool takes_alpha, takes_beta;
  float alpha, beta;
};

const std::map<std::string, ActDef>& ActDefs() {
  static const std::map<std::string, ActDef> kDefs = {
      {"Relu", {Act::kRelu, false, false, 0, 0}},
      {"Tanh", {Act::kTanh, false, false, 0, 0}},
      {"Sigmoid", {Act::kSigmoid, false, false, 0, 0}},
      {"Affine", {Act::kAffine, true, true, 1.0f, 0.0f}},
      {"LeakyRelu", {Act::kLeakyRelu, true, false, 0.01f, 0}},
      {"ThresholdedRelu", {Act::kThresholdedRelu, true, false, 1.0f, 0}},
      {"ScaledTanh", {Act::kScaledTanh, true, true, 1.0f, 1.0f}},
      {"HardSigmoid", {Act::kHardSigmoid, true, true, 0.2f, 0.5f}},
      {"Elu", {Act::kElu, true, false, 1.0f, 0}},
      {"Softsign", {Act::kSoftsign, false, false, 0, 0}},
      {"Softplus", {Act::kSoftplus, false, false, 0, 0}},
  };
  return kDefs;
}

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// The activations per direction: the attribute's names, or the cell's
// defaults. alpha and beta values are consumed in order by the functions
// that take them (as onnxruntime reads the spec); missing ones default.
Result<std::vector<Act>> ReadActs(const KernelSpec& spec, const Plan& p) {
  std::vector<std::string> names;
  if (spec.attrs.Has("activations")) {
    names = Split(spec.attrs.GetString("activations", ""));
  } else {
    const std::vector<std::string> one = p.cell == Cell::kLstm  ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
                                         : p.cell == Cell::kGru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                                                : std::vector<std::string>{"Tanh"};
    for (int64_t d = 0; d < p.dirs; ++d) names.insert(names.end(), one.begin(), one.end());
  }
  if (names.size() != p.num_acts * static_cast<size_t>(p.dirs))
    return Bad(spec, "activations has " + std::to_string(names.size()) + " names, expected " +
                         std::to_string(p.num_acts * p.dirs));
  const std::vector<float> alphas = spec.attrs.GetFloats("activation_alpha");
  const std::vector<float> betas = spec.attrs.GetFloats("activation_beta");
  size_t ai = 0, bi = 0;
  std::vector<Act> acts;
  for (const std::string& n : names) {
    auto it = ActDefs().find(n);
    if (it == ActDefs().end()) return NotSupported(spec, "activation '" + n + "' is not an ONNX RNN activation");
    const ActDef& d = it->second;
    Act a{d.kind, d.alpha, d.beta};
    if (d.takes_alpha && ai < alphas.size()) a.alpha = alphas[ai++];
    if (d.takes_beta && bi < betas.size()) a.beta = betas[bi++];
    acts.push_back(a);
  }
  return acts;
}

// Input i must be present with these dims (when present, for optional ones).
Status CheckInput(const KernelSpec& spec, const Plan& p, size_t i, const char* name, const std::vector<int64_t>& want) {
  if (!p.has[i]) return Status::Ok();
  if (spec.inputs[i].dims != want)
    return Bad(spec, std::string(name) + " " + DimsStr(spec.inputs[i].dims) + " must be " + DimsStr(want));
  return Status::Ok();
}

Status CheckShapes(const KernelSpec& spec, const Plan& p) {
  const int64_t rows = p.gates * p.hidden;
  GE_RETURN_IF_ERROR(CheckInput(spec, p, kW, "W", {p.dirs, rows, p.input}));
  GE_RETURN_IF_ERROR(CheckInput(spec, p, kR, "R", {p.dirs, rows, p.hidden}));
  GE_RETURN_IF_ERROR(CheckInput(spec, p, kB, "B", {p.dirs, 2 * rows}));
  GE_RETURN_IF_ERROR(CheckInput(spec, p, kSeqLens, "sequence_lens", {p.batch}));
  const std::vector<int64_t> state =
      p.batch_first ? std::vector<int64_t>{p.batch, p.dirs, p.hidden} : std::vector<int64_t>{p.dirs, p.batch, p.hidden};
  GE_RETURN_IF_ERROR(CheckInput(spec, p, kInitH, "initial_h", state));
  GE_RETURN_IF_ERROR(CheckInput(spec, p, kInitC, "initial_c", state));
  GE_RETURN_IF_ERROR(CheckInput(spec, p, kP, "P", {p.dirs, 3 * p.hidden}));
  const std::vector<int64_t> y = p.batch_first ? std::vector<int64_t>{p.batch, p.seq, p.dirs, p.hidden}
                                               : std::vector<int64_t>{p.seq, p.dirs, p.batch, p.hidden};
  GE_RETURN_IF_ERROR(loop::CheckOutputDims(spec, 0, y));
  for (size_t j = 1; j < spec.outputs.size(); ++j) GE_RETURN_IF_ERROR(loop::CheckOutputDims(spec, j, state));
  return Status::Ok();
}

Status CheckDtypes(const KernelSpec& spec, const Plan& p) {
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    if (!p.has[i]) continue;
    if (i == kSeqLens) {
      if (!loop::IsIndexType(spec.inputs[i].dtype)) return Bad(spec, "sequence_lens must be int32 or int64");
      continue;
    }
    GE_RETURN_IF_ERROR(loop::CheckDtype(spec, spec.inputs[i], "input", {DataType::kFloat32}));
  }
  for (const auto& o : spec.outputs) GE_RETURN_IF_ERROR(loop::CheckDtype(spec, o, "output", {DataType::kFloat32}));
  return Status::Ok();
}

}  // namespace

float Apply(const Act& a, float x) {
  switch (a.kind) {
    case Act::kRelu: return x > 0 ? x : 0;
    case Act::kTanh: return std::tanh(x);
    case Act::kSigmoid: return 1.0f / (1.0f + std::exp(-x));
    case Act::kAffine: return a.alpha * x + a.beta;
    case Act::kLeakyRelu: return x >= 0 ? x : a.alpha * x;
    case Act::kThresholdedRelu: return x > a.alpha ? x : 0;
    case Act::kScaledTanh: return a.alpha * std::tanh(a.beta * x);
    case Act::kHardSigmoid: return std::fmax(0.0f, std::fmin(1.0f, a.alpha * x + a.beta));
    case Act::kElu: return x >= 0 ? x : a.alpha * (std::exp(x) - 1.0f);
    case Act::kSoftsign: return x / (1.0f + std::fabs(x));
    case Act::kSoftplus: return std::log1p(std::exp(x));
  }
  return x;
}

Result<Plan> MakePlan(const KernelSpec& spec) {
  Plan p;
  p.cell = spec.op == "LSTM" ? Cell::kLstm : spec.op == "GRU" ? Cell::kGru : Cell::kRnn;
  p.gates = p.cell == Cell::kLstm ? 4 : p.cell == Cell::kGru ? 3 : 1;
  p.num_acts = p.cell == Cell::kLstm ? 3 : p.cell == Cell::kGru ? 2 : 1;
  const size_t max_in = p.cell == Cell::kLstm ? 8 : 6;
  GE_RETURN_IF_ERROR(loop::CheckArity(spec, 3, max_in, 1, p.cell == Cell::kLstm ? 3 : 2));
  for (size_t i = 0; i < spec.inputs.size(); ++i) p.has[i] = spec.inputs[i].present();
  p.num_outputs = spec.outputs.size();
  GE_RETURN_IF_ERROR(CheckDtypes(spec, p));
  if (p.has[kSeqLens]) p.lens_type = spec.inputs[kSeqLens].dtype;

  const std::string direction = spec.attrs.GetString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return Bad(spec, "direction '" + direction + "' is not one of forward, reverse, bidirectional");
  p.dirs = direction == "bidirectional" ? 2 : 1;
  p.reverse = direction == "reverse";
  const int64_t layout = spec.attrs.GetInt("layout", 0);
  if (layout != 0 && layout != 1) return Bad(spec, "layout " + std::to_string(layout) + " is not 0 or 1");
  p.batch_first = layout == 1;
  p.linear_before_reset = spec.attrs.GetInt("linear_before_reset", 0) != 0;
  p.input_forget = spec.attrs.GetInt("input_forget", 0) != 0;
  if (spec.attrs.Has("clip")) {
    p.clip = spec.attrs.GetFloat("clip", 0);
    if (!(*p.clip > 0)) return Bad(spec, "clip must be positive");
  }

  const std::vector<int64_t>& x = spec.inputs[kX].dims;
  if (x.size() != 3) return Bad(spec, "X " + DimsStr(x) + " must be 3-D");
  p.seq = x[p.batch_first ? 1 : 0];
  p.batch = x[p.batch_first ? 0 : 1];
  p.input = x[2];
  const std::vector<int64_t>& r = spec.inputs[kR].dims;
  if (r.size() != 3) return Bad(spec, "R " + DimsStr(r) + " must be 3-D");
  p.hidden = spec.attrs.GetInt("hidden_size", r[2]);
  if (p.hidden <= 0) return Bad(spec, "hidden_size must be positive");
  GE_RETURN_IF_ERROR(CheckShapes(spec, p));
  GE_ASSIGN_OR_RETURN(p.acts, ReadActs(spec, p));
  return p;
}

void ReadLengths(const Plan& p, const void* lens, std::vector<int64_t>& out) {
  out.assign(static_cast<size_t>(p.batch), p.seq);
  if (lens) loop::ReadInts(lens, p.lens_type, p.batch, out.data());
}

}  // namespace ge::hal::rnn
