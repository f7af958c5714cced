// ONNX BatchNormalization (inference), LayerNormalization and
// InstanceNormalization on oneDNN's normalization primitives.
//
// InstanceNormalization is batch normalization of X viewed as [1, N*C, S]:
// "batch" statistics of that view are exactly the per-instance ones.
#include <cmath>
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using dims = std::vector<int64_t>;
using flags = dnnl::normalization_flags;

Status CheckParam(const KernelSpec& spec, size_t i, int64_t n, const char* what) {
  if (spec.inputs[i].NumElements() != n)
    return InvalidArgument(spec.op + ": " + what + " " + DimsString(spec.inputs[i].dims) + " must have " +
                           std::to_string(n) + " values");
  return Status::Ok();
}

// ---- BatchNormalization ----------------------------------------------------

Status SupportsBatchNorm(const KernelSpec& spec) {
  if (spec.attrs.GetInt("training_mode", 0) != 0)
    return Unsupported("BatchNormalization: training_mode=1 is not supported (inference only)");
  if (spec.attrs.GetInt("spatial", 1) == 0) return Unsupported("BatchNormalization: spatial=0 is not supported");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "only the inference form (output 0) is supported"));
  if (spec.inputs.size() != 5) return InvalidArgument("BatchNormalization takes X, scale, B, mean, var");
  for (const auto& t : spec.inputs)
    if (!t.present()) return InvalidArgument("BatchNormalization: all 5 inputs are required");
  GE_RETURN_IF_ERROR(RequireStaticF32(spec));
  const dims& x = spec.inputs[0].dims;
  if (x.size() < 2 || x.size() > 5)
    return Unsupported("BatchNormalization: input rank " + std::to_string(x.size()) + " (2 to 5 supported)");
  const char* names[] = {"", "scale", "B", "mean", "var"};
  for (size_t i = 1; i < 5; ++i) GE_RETURN_IF_ERROR(CheckParam(spec, i, x[1], names[i]));
  if (spec.outputs[0].dims != x) return InvalidArgument("BatchNormalization: output shape differs from X");
  return Status::Ok();
}

class BatchNormKernel final : public DnnlKernel {
 public:
  explicit BatchNormKernel(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec) {
    // Viewed as [N, C, S, 1] whatever the rank: oneDNN's fast ncsp kernel
    // takes 4-D, rank 2 and 3 would get the reference one.
    const dims& x = spec.inputs[0].dims;
    int64_t sp = 1;
    for (size_t i = 2; i < x.size(); ++i) sp *= x[i];
    const auto data_md = PlainDesc({x[0], x[1], sp, 1});
    const auto param_md = PlainDesc({x[1]});
    const float eps = spec.attrs.GetFloat("epsilon", 1e-5f);
    dnnl::batch_normalization_forward::desc desc(dnnl::prop_kind::forward_inference, data_md, eps,
                                                 flags::use_global_stats | flags::use_scale | flags::use_shift);
    dnnl::batch_normalization_forward::primitive_desc pd(desc, ScratchpadAttr(), Engine());
    LogImpl(spec, "batchnorm", pd);
    x_ = UserMemory(data_md);
    y_ = UserMemory(data_md);
    // inputs 1..4 in ONNX order: scale, B, mean, var
    const int arg_of[] = {0, DNNL_ARG_SCALE, DNNL_ARG_SHIFT, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE};
    std::vector<std::pair<int, dnnl::memory>> args = {{DNNL_ARG_SRC, x_}, {DNNL_ARG_DST, y_}};
    for (size_t i = 1; i < 5; ++i) {
      params_[i] = UserMemory(param_md);
      if (const void* c = spec.ConstInput(i)) {
        Bind(params_[i], c);
        bind_[i] = false;
      }
      args.emplace_back(arg_of[i], params_[i]);
    }
    steps_.emplace_back(dnnl::batch_normalization_forward(pd), pd, std::move(args));
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    Bind(x_, in[0]);
    Bind(y_, out[0]);
    for (size_t i = 1; i < 5; ++i)
      if (bind_[i]) Bind(params_[i], in[i]);
    return Execute(steps_);
  }

 private:
  dnnl::memory x_, y_, params_[5];
  bool bind_[5] = {false, true, true, true, true};
  std::vector<Step> steps_;
};

// ---- LayerNormalization ------------------------------------------------------

struct LayerNormShape {
  int64_t outer = 1, inner = 1;
  bool has_bias = false;
  bool mean = false, inv_std_dev = false;  // outputs 1 and 2 requested
};

bool HasOutput(const KernelSpec& spec, size_t i) { return i < spec.outputs.size() && spec.outputs[i].present(); }

Result<LayerNormShape> PlanLayerNorm(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 3, "LayerNormalization has Y, Mean and InvStdDev"));
  if (spec.inputs.size() < 2 || spec.inputs.size() > 3)
    return InvalidArgument("LayerNormalization takes X, Scale and optional B");
  GE_RETURN_IF_ERROR(RequireStaticF32(spec));
  const dims& x = spec.inputs[0].dims;
  const int64_t r = static_cast<int64_t>(x.size());
  int64_t axis = spec.attrs.GetInt("axis", -1);
  if (axis < 0) axis += r;
  if (r == 0 || axis < 0 || axis >= r)
    return InvalidArgument("LayerNormalization: axis " + std::to_string(spec.attrs.GetInt("axis", -1)) +
                           " out of range for rank " + std::to_string(r));
  LayerNormShape s;
  for (int64_t i = 0; i < r; ++i) (i < axis ? s.outer : s.inner) *= x[i];
  GE_RETURN_IF_ERROR(CheckParam(spec, 1, s.inner, "Scale"));
  s.has_bias = spec.inputs.size() == 3 && spec.inputs[2].present();
  if (s.has_bias) GE_RETURN_IF_ERROR(CheckParam(spec, 2, s.inner, "B"));
  if (spec.outputs[0].dims != x) return InvalidArgument("LayerNormalization: output shape differs from X");
  if (s.inner == 0) return Unsupported("LayerNormalization: empty normalized dims");
  // Mean and InvStdDev: x's dims up to axis, then 1s (stash_type float).
  s.mean = HasOutput(spec, 1);
  s.inv_std_dev = HasOutput(spec, 2);
  for (size_t j = 1; j <= 2; ++j)
    if (HasOutput(spec, j) && spec.outputs[j].NumElements() != s.outer)
      return InvalidArgument("LayerNormalization: output " + std::to_string(j) + " has " +
                             std::to_string(spec.outputs[j].NumElements()) + " elements, expected " +
                             std::to_string(s.outer));
  return s;
}

class LayerNormKernel final : public DnnlKernel {
 public:
  explicit LayerNormKernel(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec, const LayerNormShape& s) {
    empty_ = s.outer == 0;
    if (empty_) return Status::Ok();
    const auto data_md = PlainDesc({s.outer, s.inner});  // normalize over the last dim
    const float eps = spec.attrs.GetFloat("epsilon", 1e-5f);
    const flags f = s.has_bias ? flags::use_scale | flags::use_shift : flags::use_scale;
    // Training mode computes the statistics as outputs, which Mean and
    // InvStdDev are made from; inference mode keeps them internal.
    stats_ = s.mean || s.inv_std_dev;
    outer_ = s.outer;
    mean_out_ = s.mean;
    inv_out_ = s.inv_std_dev;
    eps_ = eps;
    const auto prop = stats_ ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
    dnnl::layer_normalization_forward::desc desc(prop, data_md, eps, f);
    dnnl::layer_normalization_forward::primitive_desc pd(desc, ScratchpadAttr(), Engine());
    LogImpl(spec, "layernorm", pd);
    x_ = UserMemory(data_md);
    y_ = UserMemory(data_md);
    std::vector<std::pair<int, dnnl::memory>> args = {{DNNL_ARG_SRC, x_}, {DNNL_ARG_DST, y_}};
    const int arg_of[] = {0, DNNL_ARG_SCALE, DNNL_ARG_SHIFT};
    for (size_t i = 1; i < (s.has_bias ? 3u : 2u); ++i) {
      params_[i] = UserMemory(PlainDesc({s.inner}));
      if (const void* c = spec.ConstInput(i)) {
        Bind(params_[i], c);
        bind_[i] = false;
      }
      args.emplace_back(arg_of[i], params_[i]);
    }
    n_params_ = s.has_bias ? 3 : 2;
    if (stats_) {
      mean_ = dnnl::memory(pd.mean_desc(), Engine());
      var_ = dnnl::memory(pd.variance_desc(), Engine());
      args.emplace_back(DNNL_ARG_MEAN, mean_);
      args.emplace_back(DNNL_ARG_VARIANCE, var_);
    }
    steps_.emplace_back(dnnl::layer_normalization_forward(pd), pd, std::move(args));
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    if (empty_) return Status::Ok();
    Bind(x_, in[0]);
    Bind(y_, out[0]);
    for (size_t i = 1; i < n_params_; ++i)
      if (bind_[i]) Bind(params_[i], in[i]);
    GE_RETURN_IF_ERROR(Execute(steps_));
    if (!stats_) return Status::Ok();
    const auto* mean = static_cast<const float*>(mean_.get_data_handle());
    const auto* var = static_cast<const float*>(var_.get_data_handle());
    if (mean_out_) std::memcpy(out[1], mean, static_cast<size_t>(outer_) * sizeof(float));
    if (inv_out_) {
      auto* inv = static_cast<float*>(out[2]);
      for (int64_t i = 0; i < outer_; ++i) inv[i] = 1.0f / std::sqrt(var[i] + eps_);
    }
    return Status::Ok();
  }

 private:
  dnnl::memory x_, y_, params_[3], mean_, var_;
  bool stats_ = false, mean_out_ = false, inv_out_ = false;
  int64_t outer_ = 0;
  float eps_ = 0;
  bool bind_[3] = {false, true, true};
  size_t n_params_ = 2;
  bool empty_ = false;
  std::vector<Step> steps_;
};

// ---- InstanceNormalization ---------------------------------------------------

Status SupportsInstanceNorm(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "InstanceNormalization has one output"));
  if (spec.inputs.size() != 3) return InvalidArgument("InstanceNormalization takes X, scale, B");
  GE_RETURN_IF_ERROR(RequireStaticF32(spec));
  const dims& x = spec.inputs[0].dims;
  if (x.size() < 3) return InvalidArgument("InstanceNormalization: X must have rank >= 3");
  GE_RETURN_IF_ERROR(CheckParam(spec, 1, x[1], "scale"));
  GE_RETURN_IF_ERROR(CheckParam(spec, 2, x[1], "B"));
  if (spec.outputs[0].dims != x) return InvalidArgument("InstanceNormalization: output shape differs from X");
  if (spec.inputs[0].NumElements() == 0) return Unsupported("InstanceNormalization: empty input");
  return Status::Ok();
}

class InstanceNormKernel final : public DnnlKernel {
 public:
  explicit InstanceNormKernel(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec) {
    const dims& x = spec.inputs[0].dims;
    n_ = x[0];
    c_ = x[1];
    int64_t sp = 1;
    for (size_t i = 2; i < x.size(); ++i) sp *= x[i];
    const auto data_md = PlainDesc({1, n_ * c_, sp, 1});  // 4-D: ncsp_bnorm, not the reference
    const auto param_md = PlainDesc({n_ * c_});
    const float eps = spec.attrs.GetFloat("epsilon", 1e-5f);
    // forward_training: statistics come from the data, not from inputs.
    dnnl::batch_normalization_forward::desc desc(dnnl::prop_kind::forward_training, data_md, eps,
                                                 flags::use_scale | flags::use_shift);
    dnnl::batch_normalization_forward::primitive_desc pd(desc, ScratchpadAttr(), Engine());
    LogImpl(spec, "instancenorm", pd);
    x_ = UserMemory(data_md);
    y_ = UserMemory(data_md);
    scale_ = dnnl::memory(param_md, Engine());
    shift_ = dnnl::memory(param_md, Engine());
    std::vector<std::pair<int, dnnl::memory>> args = {{DNNL_ARG_SRC, x_},
                                                      {DNNL_ARG_DST, y_},
                                                      {DNNL_ARG_SCALE, scale_},
                                                      {DNNL_ARG_SHIFT, shift_},
                                                      {DNNL_ARG_MEAN, dnnl::memory(pd.mean_desc(), Engine())},
                                                      {DNNL_ARG_VARIANCE, dnnl::memory(pd.variance_desc(), Engine())}};
    if (pd.workspace_desc().get_size() > 0)
      args.emplace_back(DNNL_ARG_WORKSPACE, dnnl::memory(pd.workspace_desc(), Engine()));
    steps_.emplace_back(dnnl::batch_normalization_forward(pd), pd, std::move(args));
    // Per-channel scale/B tiled over N; constants once, others per run.
    for (int i = 0; i < 2; ++i) {
      tile_[i] = !spec.ConstInput(1 + i);
      if (!tile_[i]) Tile(i, spec.ConstInput(1 + i));
    }
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    for (int i = 0; i < 2; ++i)
      if (tile_[i]) Tile(i, in[1 + i]);
    Bind(x_, in[0]);
    Bind(y_, out[0]);
    return Execute(steps_);
  }

 private:
  void Tile(int i, const void* src) {
    auto* dst = static_cast<float*>((i == 0 ? scale_ : shift_).get_data_handle());
    for (int64_t n = 0; n < n_; ++n) std::memcpy(dst + n * c_, src, c_ * sizeof(float));
  }

  int64_t n_ = 0, c_ = 0;
  dnnl::memory x_, y_, scale_, shift_;
  bool tile_[2] = {true, true};
  std::vector<Step> steps_;
};

template <typename K>
Result<std::unique_ptr<Kernel>> CreateSimple(const KernelSpec& spec, Status (*support)(const KernelSpec&)) {
  return Guard(spec, [&]() -> Result<std::unique_ptr<Kernel>> {
    GE_RETURN_IF_ERROR(support(spec));
    auto k = std::make_unique<K>(spec);
    GE_RETURN_IF_ERROR(k->Init(spec));
    return std::unique_ptr<Kernel>(std::move(k));
  });
}

}  // namespace

void RegisterNormKernels(KernelRegistry& r) {
  // Support checks are plain code, but guarded anyway: nothing may throw out.
  auto guarded = [](Status (*f)(const KernelSpec&)) {
    return [f](const KernelSpec& s) { return Guard(s, [&] { return f(s); }); };
  };
  r.Register("BatchNormalization", guarded(SupportsBatchNorm),
             [](const KernelSpec& s) { return CreateSimple<BatchNormKernel>(s, SupportsBatchNorm); });
  r.Register("LayerNormalization", SupportsPlan<PlanLayerNorm>, CreatePlanned<LayerNormKernel, PlanLayerNorm>);
  r.Register("InstanceNormalization", guarded(SupportsInstanceNorm),
             [](const KernelSpec& s) { return CreateSimple<InstanceNormKernel>(s, SupportsInstanceNorm); });
}

}  // namespace ge::hal
