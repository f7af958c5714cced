#include "kernels/dnnl_context.h"

#include <algorithm>
#include <cfloat>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>

#include "kernels/activation_loop.h"
#include "kernels/thread_scratch.h"

namespace ge::hal::dnnl_util {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

const dnnl::engine& Engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::stream NewStream() { return dnnl::stream(Engine()); }

dnnl::memory::data_type ToDnnl(DataType t) {
  switch (t) {
    case DataType::kFloat32:
      return dt::f32;
    case DataType::kFloat16:
      return dt::f16;
    case DataType::kBFloat16:
      return dt::bf16;
    case DataType::kInt8:
      return dt::s8;
    case DataType::kUInt8:
      return dt::u8;
    case DataType::kInt32:
      return dt::s32;
    default:
      return dt::undef;
  }
}

dnnl::memory::dims ToDims(const std::vector<int64_t>& dims) { return dnnl::memory::dims(dims.begin(), dims.end()); }

dnnl::memory::format_tag PlainTag(size_t rank) {
  static const tag tags[] = {tag::undef, tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde, tag::abcdef};
  return rank < std::size(tags) ? tags[rank] : tag::undef;
}

dnnl::memory::desc PlainDesc(const std::vector<int64_t>& dims, dnnl::memory::data_type type) {
  // Strides instead of a tag: works for any rank oneDNN accepts (up to 12).
  dnnl::memory::dims strides(dims.size());
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(dims[i], 1);
  }
  return dnnl::memory::desc(ToDims(dims), type, strides);
}

dnnl::memory::format_tag ChannelBlockedTag(size_t rank) {
  const bool wide = PreferredChannelBlock() == 16;
  switch (rank) {
    case 3:
      return wide ? tag::nCw16c : tag::nCw8c;
    case 4:
      return wide ? tag::nChw16c : tag::nChw8c;
    case 5:
      return wide ? tag::nCdhw16c : tag::nCdhw8c;
    default:
      return tag::undef;
  }
}

// The ISA values are bit sets (avx2_vnni is numerically above the AVX-512
// ones): "has" is a subset test, not a comparison.
bool HasIsa(dnnl::cpu_isa isa) {
  const auto want = static_cast<unsigned>(isa);
  return (static_cast<unsigned>(dnnl::get_effective_cpu_isa()) & want) == want;
}

int PreferredChannelBlock() { return HasIsa(dnnl::cpu_isa::avx512_core) ? 16 : 8; }

namespace {
// The source layout oneDNN picks, when left free, for a typical 3x3 conv
// (64 -> 64 channels, 56x56) with `algorithm`, as a channel_block.
int32_t PickedConvLayout(dnnl::algorithm algorithm) {
  try {
    const auto f32 = dt::f32;
    const dnnl::memory::dims x = {1, 64, 56, 56}, w = {64, 64, 3, 3};
    const dnnl::memory::desc any_x(x, f32, tag::any), any_w(w, f32, tag::any), any_y(x, f32, tag::any);
    dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, algorithm, any_x, any_w, any_y, {1, 1},
                                      {0, 0}, {1, 1}, {1, 1});
    dnnl::convolution_forward::primitive_desc pd(d, Engine());
    for (int32_t b : {8, 16, kChannelsLast}) {
      TensorInfo t{DataType::kFloat32, {1, 64, 56, 56}, b};
      if (pd.src_desc() == LayoutDesc(t)) return b;
    }
  } catch (const dnnl::error&) {
  }
  return 0;
}
}  // namespace

// AVX2 answers nChw8c; AVX-512's brgemm kernels answer nhwc.
int32_t PreferredConvLayout() { return PickedConvLayout(dnnl::algorithm::convolution_direct); }

// AVX-512's Winograd kernels answer nChw16c.
int32_t WinogradConvLayout() { return PickedConvLayout(dnnl::algorithm::convolution_winograd); }

namespace {
tag BlockedTag(const TensorInfo& t) {
  const size_t r = t.dims.size();
  if (r < 3 || r > 5) return tag::undef;
  static const tag last[] = {tag::nwc, tag::nhwc, tag::ndhwc};
  if (t.channel_block == kChannelsLast) return last[r - 3];
  if (t.channel_block <= 0 || t.dims[1] % t.channel_block != 0) return tag::undef;
  static const tag b8[] = {tag::nCw8c, tag::nChw8c, tag::nCdhw8c}, b16[] = {tag::nCw16c, tag::nChw16c, tag::nCdhw16c};
  if (t.channel_block == 8) return b8[r - 3];
  if (t.channel_block == 16) return b16[r - 3];
  return tag::undef;
}
}  // namespace

Status CheckLayout(const TensorInfo& t, const std::string& what) {
  if (t.channel_block == 0 || BlockedTag(t) != tag::undef) return Status::Ok();
  return Unsupported(what + ": no layout for channel block " + std::to_string(t.channel_block) + " of " +
                     DimsString(t.dims));
}

dnnl::memory::desc LayoutDesc(const TensorInfo& t) {
  const auto type = ToDnnl(t.dtype);
  if (t.channel_block == 0) return PlainDesc(t.dims, type);
  const tag f = BlockedTag(t);
  if (f == tag::undef)
    throw dnnl::error(dnnl_unimplemented, ("no layout for channel block " + std::to_string(t.channel_block) +
                                           " of " + DimsString(t.dims)).c_str());
  return dnnl::memory::desc(ToDims(t.dims), type, f);
}

Status RequirePlain(const KernelSpec& spec, const std::vector<size_t>& inputs, const char* what) {
  for (size_t i : inputs)
    if (i < spec.inputs.size() && spec.inputs[i].channel_block != 0)
      return Unsupported(spec.op + ": " + what + " must be plain (input " + std::to_string(i) + " is channel-blocked)");
  return Status::Ok();
}

bool IsJit(const dnnl::primitive_desc_base& pd) { return std::strncmp(pd.impl_info_str(), "jit", 3) == 0; }

bool IsReference(const dnnl::primitive_desc_base& pd) { return std::strncmp(pd.impl_info_str(), "ref", 3) == 0; }

std::string DimsString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(dims[i]);
  }
  s += ']';
  return s;
}

namespace {

Status RequireStaticOf(const KernelSpec& spec, bool bf16) {
  auto dynamic = [](const TensorInfo& t) {
    return std::any_of(t.dims.begin(), t.dims.end(), [](int64_t d) { return d < 0; });
  };
  auto typed = [&](DataType d) { return d == DataType::kFloat32 || (bf16 && d == DataType::kBFloat16); };
  const char* want = bf16 ? ", only f32 and bf16 are supported" : ", only f32 is supported";
  for (const auto& t : spec.inputs)
    if (t.present() && dynamic(t)) return Unsupported(spec.op + ": dynamic input shape " + DimsString(t.dims));
  for (const auto& t : spec.outputs)
    if (dynamic(t)) return Unsupported(spec.op + ": dynamic output shape " + DimsString(t.dims));
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    const auto& t = spec.inputs[i];
    if (t.present() && !typed(t.dtype))
      return Unsupported(spec.op + ": input " + std::to_string(i) + " is " + DataTypeName(t.dtype) + want);
  }
  for (size_t i = 0; i < spec.outputs.size(); ++i) {
    if (spec.outputs[i].present() && !typed(spec.outputs[i].dtype))
      return Unsupported(spec.op + ": output " + std::to_string(i) + " is " + DataTypeName(spec.outputs[i].dtype) +
                         want);
  }
  return Status::Ok();
}

}  // namespace

Status RequireStaticF32(const KernelSpec& spec) { return RequireStaticOf(spec, false); }

bool HasNativeBf16() {
  static const bool has = HasIsa(dnnl::cpu_isa::avx512_core_bf16);
  return has;
}

bool HasWinogradConv() {
  static const bool has = [] {
    try {
      const dnnl::memory::dims x = {1, 64, 56, 56}, w = {64, 64, 3, 3};
      const dnnl::memory::desc any_x(x, dt::f32, tag::any), any_w(w, dt::f32, tag::any);
      dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_winograd,
                                        any_x, any_w, any_x, {1, 1}, {1, 1}, {1, 1});
      dnnl::convolution_forward::primitive_desc pd(d, Engine());
      return true;
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return has;
}

Status RequireStaticFloat(const KernelSpec& spec) { return RequireStaticOf(spec, HasNativeBf16()); }

Status RequireOutputs(const KernelSpec& spec, size_t n, const char* why) {
  if (spec.outputs.empty()) return InvalidArgument(spec.op + ": no output");
  if (spec.outputs.size() > n)
    return Unsupported(spec.op + ": " + std::to_string(spec.outputs.size()) + " outputs requested, " + why);
  return Status::Ok();
}

bool Verbose() {
  static const bool v = [] {
    const char* e = std::getenv("GE_KERNEL_VERBOSE");
    return e && *e && std::strcmp(e, "0") != 0;
  }();
  return v;
}

void LogImpl(const KernelSpec& spec, const char* what, const dnnl::primitive_desc_base& pd, const std::string& extra) {
  if (!Verbose()) return;
  std::fprintf(stderr, "[ge kernel] %s (%s) %s: %s%s%s\n", spec.name.c_str(), spec.op.c_str(), what, pd.impl_info_str(),
               extra.empty() ? "" : " ", extra.c_str());
}

Result<Activation> ParseActivation(const Attrs& attrs, bool gelu_ok) {
  Activation a;
  const std::string name = attrs.GetString(kAttrActivation, "");
  const std::optional<FusedActivation> kind = ActivationFromName(name);
  if (!kind || (*kind == FusedActivation::kGelu && !gelu_ok))
    return Unsupported("fused activation '" + name +
                       "' is not supported (Relu, Clip, Sigmoid, HardSwish, HardSigmoid, Swish" +
                       (gelu_ok ? ", Gelu)" : ")"));
  a.kind = *kind;
  if (a.kind == FusedActivation::kHardSigmoid) {
    a.alpha = attrs.GetFloat(kAttrActivationAlpha, 0.2f);
    a.beta = attrs.GetFloat(kAttrActivationBeta, 0.5f);
  } else if (a.kind == FusedActivation::kClip) {
    a.min = attrs.GetFloat(kAttrActivationMin, -FLT_MAX);
    a.max = attrs.GetFloat(kAttrActivationMax, FLT_MAX);
    if (!(a.min <= a.max)) return InvalidArgument("fused Clip has activation_min > activation_max");
  }
  return a;
}

void AppendActivation(dnnl::post_ops& ops, const Activation& act) {
  switch (act.kind) {
    case FusedActivation::kNone:
      break;
    case FusedActivation::kRelu:
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
      break;
    // clip_v2 is min(max(x, lo), hi), ONNX Clip; clip (v1) excludes lo in bwd only.
    case FusedActivation::kClip:
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_clip_v2, act.min, act.max);
      break;
    case FusedActivation::kSigmoid:
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_logistic, 0.0f, 0.0f);
      break;
    // x * relu6(x + 3) / 6 in oneDNN 2.x, ONNX's HardSwish.
    case FusedActivation::kHardSwish:
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_hardswish, 0.0f, 0.0f);
      break;
    // oneDNN 2.x has no hardsigmoid eltwise: a linear map, then a clip to
    // [0, 1], both in the same post-op chain.
    case FusedActivation::kHardSigmoid:
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, act.alpha, act.beta);
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_clip_v2, 0.0f, 1.0f);
      break;
    // x * sigmoid(alpha x), alpha 1: SiLU.
    case FusedActivation::kSwish:
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_swish, 1.0f, 0.0f);
      break;
    case FusedActivation::kGelu:
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_gelu_erf, 0.0f, 0.0f);
      break;
  }
}

bool RunsAfterPrimitive(const Activation& act) {
  return act.kind == FusedActivation::kSigmoid || act.kind == FusedActivation::kSwish;
}

void RunActivationAfter(const Activation& act, float* y, int64_t n) {
  act::Run(act.kind == FusedActivation::kSwish ? act::Fn::kSwish : act::Fn::kSigmoid, y, y, n);
}

dnnl::memory::dims Window::DnnlDilations() const {
  dnnl::memory::dims d;
  for (int64_t x : dilations) d.push_back(x - 1);
  return d;
}

Result<Window> ComputeWindow(const Attrs& attrs, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                             bool ceil_mode) {
  const size_t n = in.size();
  Window w;
  w.kernel = kernel;
  w.strides = attrs.GetInts("strides", std::vector<int64_t>(n, 1));
  w.dilations = attrs.GetInts("dilations", std::vector<int64_t>(n, 1));
  std::vector<int64_t> pads = attrs.GetInts("pads", std::vector<int64_t>(2 * n, 0));
  const std::string auto_pad = attrs.GetString("auto_pad", "NOTSET");
  if (kernel.size() != n)
    return InvalidArgument("kernel_shape has " + std::to_string(kernel.size()) + " dims, input has " +
                           std::to_string(n) + " spatial dims");
  if (w.strides.size() != n) return InvalidArgument("strides has " + std::to_string(w.strides.size()) + " values");
  if (w.dilations.size() != n)
    return InvalidArgument("dilations has " + std::to_string(w.dilations.size()) + " values");
  if (pads.size() != 2 * n) return InvalidArgument("pads has " + std::to_string(pads.size()) + " values");
  w.pad_begin.assign(pads.begin(), pads.begin() + n);
  w.pad_end.assign(pads.begin() + n, pads.end());
  w.out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (kernel[i] < 1 || w.strides[i] < 1 || w.dilations[i] < 1)
      return InvalidArgument("kernel_shape, strides and dilations must be positive");
    if (w.pad_begin[i] < 0 || w.pad_end[i] < 0) return InvalidArgument("pads must be non-negative");
    const int64_t dk = (kernel[i] - 1) * w.dilations[i] + 1;
    const int64_t s = w.strides[i];
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      w.out[i] = (in[i] + s - 1) / s;
      const int64_t total = std::max<int64_t>(0, (w.out[i] - 1) * s + dk - in[i]);
      const int64_t small = total / 2;  // SAME_UPPER puts the odd one at the end
      w.pad_begin[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      w.pad_end[i] = total - w.pad_begin[i];
      continue;
    }
    if (auto_pad == "VALID") {
      w.pad_begin[i] = w.pad_end[i] = 0;
    } else if (auto_pad != "NOTSET" && !auto_pad.empty()) {
      return InvalidArgument("auto_pad '" + auto_pad + "' is not NOTSET, VALID, SAME_UPPER or SAME_LOWER");
    }
    const int64_t span = in[i] + w.pad_begin[i] + w.pad_end[i] - dk;
    if (span < 0) return InvalidArgument("window larger than the padded input");
    w.out[i] = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    if (ceil_mode && (w.out[i] - 1) * s >= in[i] + w.pad_begin[i]) --w.out[i];
    const int64_t needed = (w.out[i] - 1) * s + dk - in[i] - w.pad_begin[i];
    if (needed > w.pad_end[i]) {
      w.pad_end[i] = needed;
      w.extra_end_pad = true;
    }
  }
  return w;
}

dnnl::primitive_attr ScratchpadAttr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

Step::Step(dnnl::primitive prim, const dnnl::primitive_desc_base& pd, std::vector<std::pair<int, dnnl::memory>> args)
    : prim_(std::move(prim)) {
  const auto sd = pd.scratchpad_desc();
  scratchpad_bytes_ = sd.get_size();
  if (scratchpad_bytes_ > 0) {
    scratchpad_ = UserMemory(sd);
    args.emplace_back(DNNL_ARG_SCRATCHPAD, scratchpad_);
  }
  for (auto& [id, m] : args) {
    args_.push_back(dnnl_exec_arg_t{id, m.get()});
    keep_.push_back(m);
  }
}

Status Step::Execute(const dnnl::stream& s) const {
  if (scratchpad_bytes_) {
    uint8_t* p = ThreadScratch(ScratchUse::kScratchpad, scratchpad_bytes_);
    if (!p) return Internal("out of memory for a " + std::to_string(scratchpad_bytes_) + " B oneDNN scratchpad");
    Bind(scratchpad_, p);
  }
  dnnl_status_t st = dnnl_primitive_execute(prim_.get(), s.get(), static_cast<int>(args_.size()), args_.data());
  if (st != dnnl_success) return Internal("oneDNN primitive execution failed (status " + std::to_string(st) + ")");
  return Status::Ok();
}

Step MakeReorder(const dnnl::memory& src, const dnnl::memory& dst, float scale) {
  dnnl::primitive_attr attr = ScratchpadAttr();
  if (scale != 1.0f) attr.set_output_scales(0, {scale});
  dnnl::reorder::primitive_desc pd(src, dst, attr);
  return Step(dnnl::reorder(pd), pd, {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}});
}

Step MakeScaledReorder(const dnnl::memory& src, const dnnl::memory& dst, int mask, const dnnl::memory& scales) {
  dnnl::primitive_attr attr = ScratchpadAttr();
  attr.set_output_scales(mask, {DNNL_RUNTIME_F32_VAL});
  dnnl::reorder::primitive_desc pd(src, dst, attr);
  return Step(dnnl::reorder(pd), pd, {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}, {DNNL_ARG_ATTR_OUTPUT_SCALES, scales}});
}

Status ReorderNow(const dnnl::stream& s, const dnnl::memory& src, const dnnl::memory& dst, float scale) {
  GE_RETURN_IF_ERROR(MakeReorder(src, dst, scale).Execute(s));
  if (dnnl_stream_wait(s.get()) != dnnl_success) return Internal("oneDNN reorder failed");
  return Status::Ok();
}

Result<std::shared_ptr<const dnnl::memory>> SharedPackedConstant(const dnnl::stream& s, const dnnl::memory& src,
                                                                 const dnnl::memory::desc& packed_md) {
  struct Entry {
    const void* data;
    dnnl::memory::desc from, to;
    std::weak_ptr<const dnnl::memory> packed;
  };
  static std::mutex mu;
  static std::vector<Entry> cache;  // few entries per model; searched at kernel creation only
  const void* data = src.get_data_handle();
  const dnnl::memory::desc from = src.get_desc();
  std::lock_guard<std::mutex> lock(mu);
  for (size_t i = 0; i < cache.size();) {
    if (auto live = cache[i].packed.lock()) {
      if (cache[i].data == data && cache[i].from == from && cache[i].to == packed_md) return live;
      ++i;
    } else {
      cache[i] = cache.back();  // expired: drop
      cache.pop_back();
    }
  }
  auto packed = std::make_shared<const dnnl::memory>(packed_md, Engine());
  GE_RETURN_IF_ERROR(ReorderNow(s, src, *packed));
  cache.push_back(Entry{data, from, packed_md, packed});
  return std::shared_ptr<const dnnl::memory>(std::move(packed));
}

dnnl::memory UserMemory(const dnnl::memory::desc& md) { return dnnl::memory(md, Engine(), DNNL_MEMORY_NONE); }

Status ExecuteAndWait(const dnnl::stream& s, const std::vector<Step>& steps) {
  try {
    for (const Step& step : steps) GE_RETURN_IF_ERROR(step.Execute(s));
    if (dnnl_stream_wait(s.get()) != dnnl_success) return Internal("oneDNN stream wait failed");
  } catch (const std::exception& e) {
    return Internal(e.what());
  }
  return Status::Ok();
}

Status DnnlKernel::Run(const void* const* inputs, void* const* outputs) {
  try {
    Status s = RunImpl(inputs, outputs);
    if (dnnl_stream_wait(stream_.get()) != dnnl_success && s.ok()) s = Internal("oneDNN stream wait failed");
    if (!s.ok()) s.Annotate("node " + spec_name_ + " (" + spec_op_ + ")");  // no string work when OK
    return s;
  } catch (const std::exception& e) {
    return Internal(e.what()).Annotated("node " + spec_name_ + " (" + spec_op_ + ")");
  }
}

Status DnnlKernel::Wait() const {
  if (dnnl_stream_wait(stream_.get()) != dnnl_success) return Internal("oneDNN stream wait failed");
  return Status::Ok();
}

dnnl::memory DnnlKernel::Temporary(const dnnl::memory::desc& md) {
  dnnl::memory m = UserMemory(md);
  temporaries_.emplace_back(m, temporary_bytes_);
  temporary_bytes_ += (md.get_size() + 63) / 64 * 64;  // each 64-byte aligned, as oneDNN allocates
  return m;
}

Status DnnlKernel::Execute(const std::vector<Step>& steps) const {
  if (temporary_bytes_) {
    uint8_t* base = ThreadScratch(ScratchUse::kTemporaries, temporary_bytes_);
    if (!base) return Internal("out of memory for " + std::to_string(temporary_bytes_) + " B of kernel temporaries");
    for (const auto& [m, offset] : temporaries_) Bind(m, base + offset);
  }
  for (const auto& step : steps) GE_RETURN_IF_ERROR(step.Execute(stream_));
  return Status::Ok();
}

}  // namespace ge::hal::dnnl_util
