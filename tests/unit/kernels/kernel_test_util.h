// Runs one CPU kernel on host vectors; shared by the kernel tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "hal/device.h"
#include "hal/kernel.h"
#include "hal/memory.h"

namespace ge::test {

// The CPU backend, whose kernels these tests are about, from the registry.
inline hal::Device& Cpu() {
  static hal::Device* d = [] {
    auto r = hal::GetDevice("cpu");
    if (!r.ok()) ADD_FAILURE() << r.status().ToString();
    return r.ok() ? *r : nullptr;
  }();
  return *d;
}

struct HostTensor {
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;
  bool is_const = false;  // passed to the kernel as a load-time constant
  int32_t channel_block = 0;  // the layout of bytes (hal::TensorInfo::channel_block)

  template <typename T>
  static HostTensor Of(DataType dt, std::vector<int64_t> dims, const std::vector<T>& v, bool is_const = false) {
    HostTensor t;
    t.dtype = dt;
    t.dims = std::move(dims);
    t.bytes.resize(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(t.bytes.data(), v.data(), t.bytes.size());
    t.is_const = is_const;
    return t;
  }
  static HostTensor F32(std::vector<int64_t> dims, const std::vector<float>& v, bool is_const = false) {
    return Of(DataType::kFloat32, std::move(dims), v, is_const);
  }
  static HostTensor I64(std::vector<int64_t> dims, const std::vector<int64_t>& v, bool is_const = false) {
    return Of(DataType::kInt64, std::move(dims), v, is_const);
  }
  static HostTensor Absent() { return HostTensor{}; }
  template <typename T>
  std::vector<T> as() const {
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
  }
  hal::TensorInfo info() const { return hal::TensorInfo{dtype, dims, channel_block}; }
};

// One kernel's spec and input buffers, as the runtimes hand them over.
struct KernelCall {
  hal::KernelSpec spec;
  std::vector<hal::DeviceBuffer> in_bufs;
  std::vector<const void*> in_ptrs;  // nullptr for absent inputs
  std::unique_ptr<hal::Kernel> kernel;
};

// Creates the kernel through the CPU device's registry (the same path the
// runtimes take). `edit`, when given, changes the spec before Create (what a
// .om adds to it, e.g. packed_inputs).
inline Result<KernelCall> CreateKernel(const std::string& op, const hal::Attrs& attrs,
                                       const std::vector<HostTensor>& inputs,
                                       const std::vector<hal::TensorInfo>& outputs,
                                       const std::function<void(hal::KernelSpec&)>& edit = nullptr) {
  KernelCall c;
  c.spec.op = op;
  c.spec.name = "test_" + op;
  c.spec.attrs = attrs;
  for (const auto& t : inputs) {
    c.spec.inputs.push_back(t.info());
    GE_ASSIGN_OR_RETURN(auto b, Cpu().Allocate(std::max<size_t>(t.bytes.size(), 1)));
    if (!t.bytes.empty()) std::memcpy(b.data(), t.bytes.data(), t.bytes.size());
    c.spec.const_inputs.push_back(t.is_const ? b.data() : nullptr);
    c.in_ptrs.push_back(t.dtype == DataType::kUndefined ? nullptr : b.data());
    c.in_bufs.push_back(std::move(b));
  }
  c.spec.outputs = outputs;
  if (edit) edit(c.spec);
  const auto& reg = Cpu().kernels();
  GE_RETURN_IF_ERROR(reg.Supports(c.spec));
  GE_ASSIGN_OR_RETURN(c.kernel, reg.Create(c.spec));
  return c;
}

// Runs the kernel twice (kernels must be re-runnable) into outputs of these
// shapes, filled with garbage first so unwritten outputs show; returns the
// outputs of the second run. With `ask_dims` each Run follows OutputDims,
// as the runtime calls computed-shape kernels; it must answer these shapes.
inline Result<std::vector<HostTensor>> RunInto(KernelCall& c, const std::vector<hal::TensorInfo>& outputs,
                                               bool ask_dims = false) {
  std::vector<hal::DeviceBuffer> out_bufs;
  std::vector<void*> out_ptrs;
  for (const auto& o : outputs) {
    GE_ASSIGN_OR_RETURN(auto b, Cpu().Allocate(std::max<size_t>(o.Bytes(), 1)));
    std::memset(b.data(), 0xCD, std::max<size_t>(o.Bytes(), 1));
    out_ptrs.push_back(b.data());
    out_bufs.push_back(std::move(b));
  }
  for (int round = 0; round < 2; ++round) {
    if (ask_dims) {
      std::vector<std::vector<int64_t>> dims;
      GE_RETURN_IF_ERROR(c.kernel->OutputDims(c.in_ptrs.data(), dims));
      for (size_t i = 0; i < outputs.size(); ++i)
        if (dims.size() != outputs.size() || dims[i] != outputs[i].dims)
          return Internal("OutputDims answered differently for the same inputs");
    }
    GE_RETURN_IF_ERROR(c.kernel->Run(c.in_ptrs.data(), out_ptrs.data()));
  }
  std::vector<HostTensor> result;
  for (size_t i = 0; i < outputs.size(); ++i) {
    HostTensor t;
    t.dtype = outputs[i].dtype;
    t.dims = outputs[i].dims;
    t.channel_block = outputs[i].channel_block;
    t.bytes.resize(outputs[i].Bytes());
    if (!t.bytes.empty()) std::memcpy(t.bytes.data(), out_bufs[i].data(), t.bytes.size());
    result.push_back(std::move(t));
  }
  return result;
}

// Creates the kernel, runs it twice and returns the outputs of the second run.
inline Result<std::vector<HostTensor>> RunKernel(const std::string& op, const hal::Attrs& attrs,
                                                 const std::vector<HostTensor>& inputs,
                                                 const std::vector<hal::TensorInfo>& outputs) {
  GE_ASSIGN_OR_RETURN(KernelCall c, CreateKernel(op, attrs, inputs, outputs));
  return RunInto(c, outputs);
}

// For ops whose output shapes only the computation knows: the kernel is
// created with `outputs` as given (-1 where the data decides), asked
// OutputDims, and run into outputs of those dims (RunInto with ask_dims).
inline Result<std::vector<HostTensor>> RunComputedKernel(const std::string& op, const hal::Attrs& attrs,
                                                         const std::vector<HostTensor>& inputs,
                                                         std::vector<hal::TensorInfo> outputs) {
  GE_ASSIGN_OR_RETURN(KernelCall c, CreateKernel(op, attrs, inputs, outputs));
  std::vector<std::vector<int64_t>> dims;
  GE_RETURN_IF_ERROR(c.kernel->OutputDims(c.in_ptrs.data(), dims));
  if (dims.size() != outputs.size()) return Internal("OutputDims gave " + std::to_string(dims.size()) + " shapes");
  for (size_t i = 0; i < dims.size(); ++i) outputs[i].dims = dims[i];
  return RunInto(c, outputs, /*ask_dims=*/true);
}

// Uniform values in [lo, hi), reproducible from the seed.
inline std::vector<float> Random(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

inline void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-4f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0f, std::abs(want[i]))) << "at element " << i;
}

// The small vocabulary every kernel test speaks.
using dims = std::vector<int64_t>;
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

#define GE_RUN_OK(var, run, ...)                                      \
  auto var##_result = run(__VA_ARGS__);                               \
  ASSERT_TRUE(var##_result.ok()) << var##_result.status().ToString(); \
  auto& var = *var##_result
#define RUN_OK(var, ...) GE_RUN_OK(var, RunKernel, __VA_ARGS__)
#define RUN_COMPUTED_OK(var, ...) GE_RUN_OK(var, RunComputedKernel, __VA_ARGS__)

inline int64_t Count(const dims& d) {
  int64_t n = 1;
  for (auto x : d) n *= x;
  return n;
}

inline std::vector<float> Iota(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

inline hal::Attrs Attr(const std::string& k, hal::Attrs::Value v) {
  hal::Attrs a;
  a.Set(k, std::move(v));
  return a;
}

inline HostTensor I32(dims d, const std::vector<int32_t>& v, bool is_const = false) {
  return HostTensor::Of<int32_t>(DataType::kInt32, std::move(d), v, is_const);
}
inline HostTensor Bool(dims d, const std::vector<uint8_t>& v) {
  return HostTensor::Of<uint8_t>(DataType::kBool, std::move(d), v);
}

}  // namespace ge::test
