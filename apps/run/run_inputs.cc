#include "run/run_inputs.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/app_common.h"
#include "run/run_tensor_files.h"
#include "ge/tools/benchmark.h"
#include "ge/plan/memory_limit.h"
#include "ge_base/checked_math.h"
#include "ge_base/tensor_bytes.h"

namespace ge::run {

AlignedBytes::AlignedBytes(size_t n) : size(n) {
  const auto rounded = CheckedAlignUp(static_cast<int64_t>(std::max<size_t>(n, 1)), 64);
  data = rounded ? static_cast<uint8_t*>(std::aligned_alloc(64, static_cast<size_t>(*rounded))) : nullptr;
  if (data) std::memset(data, 0, size);
}

AlignedBytes::~AlignedBytes() { std::free(data); }

Status AppendBuffer(std::vector<AlignedBytes>& bufs, size_t n, const std::string& what) {
  bufs.emplace_back(n);
  if (bufs.back().data) return Status::Ok();
  bufs.pop_back();
  return Internal("out of memory: cannot allocate " + HumanBytes(static_cast<int64_t>(n)) + " for " + what);
}

Result<InputPlan> PlanInputs(const std::string& input_flag, const std::vector<IoDesc>& inputs) {
  InputPlan plan;
  if (input_flag.empty() || input_flag == "random") return plan;
  auto sets = tools::ResolveInputSets(app::SplitList(input_flag, ','), inputs.size());
  if (!sets.ok()) return sets.status().Annotated("--input");
  plan.sets = std::move(sets).value();
  std::error_code ec;
  plan.from_directories = std::filesystem::is_directory(app::SplitList(input_flag, ',').front(), ec);
  return plan;
}

Result<InputBuffers> InputBuffers::Allocate(const std::vector<IoDesc>& inputs) {
  InputBuffers b;
  for (const IoDesc& io : inputs)
    if (auto s = AppendBuffer(b.data_, static_cast<size_t>(std::max<int64_t>(io.desc.Bytes(), 0)), "input " + io.name);
        !s.ok())
      return s;
  for (auto& d : b.data_) {
    b.ptrs_.push_back(d.data);
    b.bufs_.push_back({d.data, d.size});
  }
  return b;
}

Result<double> InputBuffers::Fill(const InputPlan& plan, size_t k, const std::vector<IoDesc>& inputs) {
  double copy_ms = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IoDesc& io = inputs[i];
    std::vector<uint8_t> bytes;
    if (plan.sets.empty()) {
      if (!plan.random) continue;  // the buffers start zeroed and nothing writes them
      bytes = tools::RandomTensorBytes(io.desc, plan.seed + static_cast<uint32_t>(i));
    } else {
      auto read = ReadInputFile(plan.sets[k][i], io.desc);
      if (!read.ok()) return read.status().Annotated("--input: input " + std::to_string(i) + " (" + io.name + ")");
      bytes = std::move(read).value();
    }
    const auto t0 = std::chrono::steady_clock::now();
    if (!bytes.empty()) std::memcpy(data_[i].data, bytes.data(), std::min(bytes.size(), data_[i].size));
    copy_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return copy_ms;
}

Result<DymShapes> ParseDymShape(const std::string& flag, const std::vector<IoDesc>& inputs, const std::string& name) {
  DymShapes out;
  if (flag.empty()) return out;
  auto parsed = app::ParseInputShapes(flag);
  if (!parsed.ok()) return parsed.status().Annotated(name);
  for (auto& [input, dims] : *parsed) {
    auto it = std::find_if(inputs.begin(), inputs.end(), [&](const IoDesc& io) { return io.name == input; });
    if (it == inputs.end()) return InvalidArgument(name + " " + flag + ": the model has no input " + input);
    for (int64_t d : dims)
      if (d < 0) return InvalidArgument(name + " " + flag + ": " + input + "'s dims must be sizes (no -1 or LO~HI)");
    if (!it->desc.Admits(dims))
      return InvalidArgument(name + " " + flag + ": " + input + " " + TensorDesc(it->desc.dtype, dims).ToString() +
                             " does not fit the model's " + it->desc.ToString());
    out[input] = dims;
  }
  return out;
}

Status ApplyGearFlags(int64_t dym_batch, const std::string& dym_hw, const std::string& dym_dims,
                      const std::vector<IoDesc>& inputs, DymShapes& dims) {
  auto unknowns = [](const std::vector<int64_t>& d) { return std::count(d.begin(), d.end(), kUnknownDim); };
  if (dym_batch < 0) return InvalidArgument("--dymBatch " + std::to_string(dym_batch) + " is not a batch size");
  if (dym_batch > 0) {
    bool any = false;
    for (const IoDesc& io : inputs) {
      if (io.desc.dims.empty() || io.desc.dims[0] != kUnknownDim || unknowns(io.desc.dims) != 1) continue;
      std::vector<int64_t> d = io.desc.dims;
      d[0] = dym_batch;
      dims[io.name] = d;
      any = true;
    }
    if (!any) return InvalidArgument("--dymBatch " + std::to_string(dym_batch) + ": no input of the model has a dynamic batch (dim 0 its only -1)");
  }
  if (!dym_hw.empty()) {
    const std::vector<std::string> hw = app::SplitList(dym_hw, ',');
    std::vector<int64_t> v;
    for (const std::string& x : hw) {
      char* end = nullptr;
      const long long n = std::strtoll(x.c_str(), &end, 10);
      if (end == x.c_str() || *end != '\0' || n < 1) break;
      v.push_back(n);
    }
    if (v.size() != 2 || hw.size() != 2) return InvalidArgument("--dymHW " + dym_hw + " is not H,W");
    bool any = false;
    for (const IoDesc& io : inputs) {
      if (unknowns(io.desc.dims) != 2) continue;
      std::vector<int64_t> d = io.desc.dims;
      size_t next = 0;
      for (int64_t& x : d)
        if (x == kUnknownDim) x = v[next++];
      dims[io.name] = d;
      any = true;
    }
    if (!any) return InvalidArgument("--dymHW " + dym_hw + ": no input of the model has two dynamic dims (H and W)");
  }
  if (!dym_dims.empty()) {
    auto parsed = ParseDymShape(dym_dims, inputs, "--dymDims");
    if (!parsed.ok()) return parsed.status();
    for (auto& [name, d] : *parsed) dims[name] = d;
  }
  return Status::Ok();
}

Result<double> ShapedInputs::Fill(const InputPlan& plan, size_t k, const std::vector<IoDesc>& inputs, const DymShapes& dims) {
  data_.clear();
  views_.clear();
  double copy_ms = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IoDesc& io = inputs[i];
    auto given = dims.find(io.name);
    const std::vector<int64_t> want = given != dims.end() ? given->second : std::vector<int64_t>{};
    NpyArray a;
    if (plan.sets.empty()) {
      a.desc = TensorDesc(io.desc.dtype, want.empty() ? io.desc.dims : want);
      if (!a.desc.is_static())
        return InvalidArgument("input " + io.name + " is " + io.desc.ToString() +
                               ": give its data with --input, or its dims with --dymShape " + io.name +
                               ":... (a gear model: --dymBatch, --dymHW or --dymDims)");
      Result<size_t> size = TensorBytes(a.desc.dims, a.desc.dtype);  // --dymShape x:4611686018427387904,16
      if (!size.ok()) return size.status().Annotated("input " + io.name);
      if (plan.random) a.bytes = tools::RandomTensorBytes(a.desc, plan.seed + static_cast<uint32_t>(i));
      else a.bytes.assign(*size, 0);
    } else {
      auto read = ReadShapedInputFile(plan.sets[k][i], io.desc, want);
      if (!read.ok()) return read.status().Annotated("--input: input " + std::to_string(i) + " (" + io.name + ")");
      a = std::move(read).value();
    }
    GE_RETURN_IF_ERROR(AppendBuffer(data_, a.bytes.size(), "input " + io.name));
    const auto t0 = std::chrono::steady_clock::now();
    if (!a.bytes.empty()) std::memcpy(data_.back().data, a.bytes.data(), a.bytes.size());
    copy_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    views_.push_back(TensorView{a.desc.dtype, a.desc.dims, data_.back().data});
  }
  return copy_ms;
}

}  // namespace ge::run
