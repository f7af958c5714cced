// HannWindow, HammingWindow, BlackmanWindow and MelWeightMatrix: tables
// computed from scalar inputs in double, written in output_datatype. The
// output shape was fixed from the same values (at compile time, or per call
// in dynamic shapes); a run checks they still agree.
#include <cmath>
#include <numbers>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

// Writes n doubles as dtype t (numeric, not bool).
template <typename F>
Result<KernelPtr> TableKernel(const KernelSpec& spec, F compute) {
  Result<KernelPtr> k = NotSupported(spec, std::string("output dtype ") + DataTypeName(spec.outputs[0].dtype));
  DispatchNumeric(spec.outputs[0].dtype, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>)
      k = MakeKernel([compute, table = std::vector<double>()](const void* const* in, void* const* out) mutable {
        GE_RETURN_IF_ERROR(compute(in, table));
        T* y = static_cast<T*>(out[0]);
        for (size_t i = 0; i < table.size(); ++i) y[i] = Convert<T>(table[i]);
        return Status::Ok();
      });
  });
  return k;
}

Status CheckScalarInt(const KernelSpec& spec, size_t i, const char* what) {
  if (!IsIndexType(spec.inputs[i].dtype) || spec.inputs[i].NumElements() != 1)
    return Bad(spec, std::string(what) + " (input " + std::to_string(i) + ") must be one int32 or int64");
  return Status::Ok();
}

Status CheckWindow(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  GE_RETURN_IF_ERROR(CheckScalarInt(spec, 0, "size"));
  if (spec.outputs[0].dims.size() != 1) return Bad(spec, "output must be 1-D");
  return Status::Ok();
}

// y[i] = sum_k a[k] cos(2 pi k i / N), N = size (periodic) or size - 1.
Result<KernelPtr> CreateWindow(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckWindow(spec));
  std::vector<double> a;
  if (spec.op == "HannWindow")
    a = {0.5, -0.5};
  else if (spec.op == "HammingWindow")
    a = {25.0 / 46.0, -21.0 / 46.0};
  else
    a = {0.42, -0.5, 0.08};
  const int64_t n = spec.outputs[0].dims[0];
  const bool periodic = spec.attrs.GetInt("periodic", 1) != 0;
  const DataType st = spec.inputs[0].dtype;
  return TableKernel(spec, [a, n, periodic, st, where = Where(spec)](const void* const* in, std::vector<double>& y) {
    const int64_t size = ReadInts(in[0], st, 1)[0];
    if (size != n)
      return InvalidArgument(where + ": size " + std::to_string(size) + " differs from the output's " +
                             std::to_string(n));
    const double den = static_cast<double>(periodic ? size : size - 1);
    y.assign(static_cast<size_t>(n), 0.0);
    for (int64_t i = 0; i < n; ++i)
      for (size_t k = 0; k < a.size(); ++k)
        y[i] += a[k] * std::cos(2 * std::numbers::pi * static_cast<double>(k) * static_cast<double>(i) / den);
    return Status::Ok();
  });
}

// ---- MelWeightMatrix: ONNX's reference, step by step (its mel step divides
// by num_mel_bins + 2, and the bin edges are floored).

Status CheckMel(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 5, 5, 1, 1));
  for (size_t i : {0, 1, 2}) GE_RETURN_IF_ERROR(CheckScalarInt(spec, i, "num_mel_bins, dft_length and sample_rate"));
  for (size_t i : {3, 4}) {
    GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[i], "edge hertz", {DataType::kFloat32, DataType::kFloat64}));
    if (spec.inputs[i].NumElements() != 1) return Bad(spec, "edge hertz inputs must hold one value");
  }
  if (spec.outputs[0].dims.size() != 2) return Bad(spec, "output must be 2-D");
  return Status::Ok();
}

// Python's float floor division (numpy's //), exact to the last bit.
double FloorDiv(double a, double b) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0) return std::copysign(0.0, a / b);
  double fl = std::floor(div);
  if (div - fl > 0.5) fl += 1.0;
  return fl;
}

double ReadFloat(const void* p, DataType t) {
  return t == DataType::kFloat64 ? *static_cast<const double*>(p) : *static_cast<const float*>(p);
}

Result<KernelPtr> CreateMel(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckMel(spec));
  const int64_t rows = spec.outputs[0].dims[0], cols = spec.outputs[0].dims[1];
  std::vector<DataType> types;
  for (const auto& t : spec.inputs) types.push_back(t.dtype);
  return TableKernel(spec, [rows, cols, types, where = Where(spec)](const void* const* in, std::vector<double>& y) {
    const int64_t bins = ReadInts(in[0], types[0], 1)[0], dft = ReadInts(in[1], types[1], 1)[0];
    const int64_t rate = ReadInts(in[2], types[2], 1)[0];
    if (dft < 1 || rate < 1 || bins != cols || dft / 2 + 1 != rows)
      return InvalidArgument(where + ": num_mel_bins " + std::to_string(bins) + " and dft_length " +
                             std::to_string(dft) + " do not match the output " + DimsStr({rows, cols}));
    const double lo = ReadFloat(in[3], types[3]), hi = ReadFloat(in[4], types[4]);
    const double lo_mel = 2595 * std::log10(1 + lo / 700), hi_mel = 2595 * std::log10(1 + hi / 700);
    const double step = (hi_mel - lo_mel) / static_cast<double>(bins + 2);
    std::vector<int64_t> edge(static_cast<size_t>(bins + 2));
    for (int64_t i = 0; i < bins + 2; ++i) {
      const double hz = 700 * (std::pow(10.0, (static_cast<double>(i) * step + lo_mel) / 2595) - 1);
      edge[i] = static_cast<int64_t>(FloorDiv(static_cast<double>(dft + 1) * hz, static_cast<double>(rate)));
    }
    y.assign(static_cast<size_t>(rows * cols), 0.0);
    for (int64_t i = 0; i < bins; ++i) {
      const int64_t l = edge[i], c = edge[i + 1], h = edge[i + 2];
      if (l < 0 || c < l || h < c || c >= rows || h > rows)
        return InvalidArgument(where + ": mel bin " + std::to_string(i) + " spans spectrogram bins " +
                               std::to_string(l) + ".." + std::to_string(h) + ", outside 0.." +
                               std::to_string(rows - 1));
      if (c == l) y[c * cols + i] = 1;
      for (int64_t j = l; c > l && j <= c; ++j)
        y[j * cols + i] = static_cast<double>(j - l) / static_cast<double>(c - l);
      for (int64_t j = c; j < h; ++j) y[j * cols + i] = static_cast<double>(h - j) / static_cast<double>(h - c);
    }
    return Status::Ok();
  });
}

}  // namespace

void RegisterWindowKernels(KernelRegistry& r) {
  for (const char* w : {"HannWindow", "HammingWindow", "BlackmanWindow"})
    r.Register(
        w, [](const KernelSpec& s) { return CreateWindow(s).status(); }, CreateWindow);
  r.Register(
      "MelWeightMatrix", [](const KernelSpec& s) { return CreateMel(s).status(); }, CreateMel);
}

}  // namespace ge::hal
