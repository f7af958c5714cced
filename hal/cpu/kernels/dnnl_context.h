// Shared plumbing of the oneDNN-backed CPU kernels: the process-wide engine,
// type/shape mapping, dnnl::error -> Status, fused activations, and a
// no-allocation executor for the primitives a kernel builds at Create time.
#pragma once

#include <memory>
#include <new>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <utility>
#include <vector>

#include "hal/fused_attrs.h"
#include "hal/kernel.h"

namespace ge::hal::dnnl_util {

// The one CPU engine of the process (created on first use).
const dnnl::engine& Engine();
// A fresh in-order stream on Engine(); kernels create theirs at Create time.
dnnl::stream NewStream();

// kUndefined-safe mapping; data_type::undef when oneDNN has no such type.
dnnl::memory::data_type ToDnnl(DataType t);
dnnl::memory::dims ToDims(const std::vector<int64_t>& dims);
// Plain row-major tag for a rank: a, ab, abc, ... (rank 1..6).
dnnl::memory::format_tag PlainTag(size_t rank);
// Plain row-major f32 descriptor of dims.
dnnl::memory::desc PlainDesc(const std::vector<int64_t>& dims,
                             dnnl::memory::data_type dt = dnnl::memory::data_type::f32);

// Channel-blocked tag (nChw8c on AVX2, nChw16c on AVX-512) for rank 3..5:
// where oneDNN has jit kernels that plain nchw lacks (pooling).
dnnl::memory::format_tag ChannelBlockedTag(size_t rank);
// Whether oneDNN runs with (at least) this instruction set here.
bool HasIsa(dnnl::cpu_isa isa);
// The channel block ChannelBlockedTag uses: 16 on AVX-512, else 8.
int PreferredChannelBlock();
// The layout (a TensorInfo::channel_block) oneDNN's convolutions choose on
// this CPU; 0 when it is none we name.
int32_t PreferredConvLayout();
// The descriptor of a tensor in its declared layout: plain, or channels
// blocked by t.channel_block (ranks 3..5, block 8 or 16). Throws
// dnnl::error (via Guard) for a block it has no tag for.
dnnl::memory::desc LayoutDesc(const TensorInfo& t);
// Unsupported() unless LayoutDesc(t) has a layout for t.
Status CheckLayout(const TensorInfo& t, const std::string& what);
// Unsupported() unless input/output i of `spec` is plain: the tensors a
// kernel with LayoutSupport::kOwn does not take blocked (weights, bias).
Status RequirePlain(const KernelSpec& spec, const std::vector<size_t>& inputs, const char* what);

// The implementation is generated code, not a reference/simple loop.
bool IsJit(const dnnl::primitive_desc_base& pd);
// oneDNN's reference implementation ("ref:..."), tens of times slower.
bool IsReference(const dnnl::primitive_desc_base& pd);

// "[1,64,56,56]" for messages.
std::string DimsString(const std::vector<int64_t>& dims);
// Unsupported() unless every present input and every output is f32 with
// static (non-negative) dims.
Status RequireStaticF32(const KernelSpec& spec);
// oneDNN runs bf16 here with native instructions (AVX512-BF16, AMX), not
// emulated: only then is bf16 faster than f32.
bool HasNativeBf16();
// oneDNN has a Winograd convolution on this CPU (f32, 3x3, stride 1: its
// AVX-512 kernels; none on AVX2).
bool HasWinogradConv();
// The source layout of that Winograd convolution, as a channel_block (16 on
// AVX-512); 0 without one.
int32_t WinogradConvLayout();
// As RequireStaticF32, but bf16 tensors are accepted too where the CPU has
// native bf16 (the kernels of --precision_mode allow_mix_precision).
Status RequireStaticFloat(const KernelSpec& spec);
// Unsupported() when the spec has more than n outputs or fewer than one.
Status RequireOutputs(const KernelSpec& spec, size_t n, const char* why);

// GE_KERNEL_VERBOSE=1 prints each created primitive's implementation.
bool Verbose();
void LogImpl(const KernelSpec& spec, const char* what, const dnnl::primitive_desc_base& pd,
             const std::string& extra = "");

// Runs f() (which returns Status or Result<T>), turning any exception into a
// Status so that none escapes Create/Run.
template <typename F>
auto Guard(const KernelSpec& spec, F&& f) -> decltype(f()) {
  const std::string where = "node " + spec.name + " (" + spec.op + ")";
  try {
    return f();
  } catch (const dnnl::error& e) {
    return Internal(std::string("oneDNN: ") + e.what() + " (status " + std::to_string(e.status) + ")").Annotated(where);
  } catch (const std::bad_alloc&) {
    return Internal("out of memory").Annotated(where);
  } catch (const std::exception& e) {
    return Internal(e.what()).Annotated(where);
  }
}

// Supports and Create of a kernel made in two steps: PlanFn(spec) returns a
// plan (Result<Plan>), and K(spec).Init(spec, plan) builds the primitives.
// A spec is supported when it has a plan.
template <auto PlanFn>
Status SupportsPlan(const KernelSpec& spec) {
  return Guard(spec, [&] { return PlanFn(spec).status(); });
}
template <typename K, auto PlanFn>
Result<std::unique_ptr<Kernel>> CreatePlanned(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Result<std::unique_ptr<Kernel>> {
    GE_ASSIGN_OR_RETURN(auto plan, PlanFn(spec));
    auto k = std::make_unique<K>(spec);
    GE_RETURN_IF_ERROR(k->Init(spec, plan));
    return std::unique_ptr<Kernel>(std::move(k));
  });
}

// The activation fused after a kernel's result (hal/fused_attrs.h: the
// compiler sets it when it folds Relu/Clip/Sigmoid/... into the node).
struct Activation {
  FusedActivation kind = FusedActivation::kNone;
  float min = 0, max = 0;      // kClip
  float alpha = 0, beta = 0;   // kHardSigmoid: clip(alpha x + beta, 0, 1)
};
// Erf GELU only where the caller takes it (the compiler folds it into
// matrix products only); any other unknown value is Unsupported.
Result<Activation> ParseActivation(const Attrs& attrs, bool gelu_ok = false);
void AppendActivation(dnnl::post_ops& ops, const Activation& act);
// Whether a kernel whose f32 output ends with `act` runs its primitive
// without it and then RunActivationAfter over the output: true for Sigmoid
// and Swish, whose oneDNN post-ops cost more than an own pass
// (activation_loop.h).
bool RunsAfterPrimitive(const Activation& act);
// y = act(y) over n dense f32 values (RunsAfterPrimitive's activations).
void RunActivationAfter(const Activation& act, float* y, int64_t n);

// Sliding-window geometry of Conv and the pools, from the ONNX attributes
// kernel_shape (given here), strides, dilations, pads [b0,b1,...,e0,e1,...]
// and auto_pad (NOTSET, VALID, SAME_UPPER, SAME_LOWER).
struct Window {
  std::vector<int64_t> kernel, strides, dilations;  // ONNX dilations (1 = dense)
  std::vector<int64_t> pad_begin, pad_end;          // pad_end as oneDNN needs it (see ceil_mode)
  std::vector<int64_t> out;                         // output spatial dims
  bool extra_end_pad = false;                       // ceil_mode made pad_end exceed the declared pads
  dnnl::memory::dims DnnlStrides() const { return ToDims(strides); }
  dnnl::memory::dims DnnlDilations() const;  // oneDNN counts from 0
  dnnl::memory::dims PadL() const { return ToDims(pad_begin); }
  dnnl::memory::dims PadR() const { return ToDims(pad_end); }
};
// ceil_mode rounds the output size up, dropping a last window that would
// start in the end padding (as onnxruntime and PyTorch do).
Result<Window> ComputeWindow(const Attrs& attrs, const std::vector<int64_t>& in_spatial,
                             const std::vector<int64_t>& kernel, bool ceil_mode);

// primitive_attr with a user-owned scratchpad, so Run never lets oneDNN
// allocate one.
dnnl::primitive_attr ScratchpadAttr();

// One primitive with its arguments, executed through the C API: the C++
// execute() builds a std::vector per call, this does not allocate.
class Step {
 public:
  // pd's scratchpad (if any) is the running thread's (ThreadScratch), bound
  // at each Execute.
  Step(dnnl::primitive prim, const dnnl::primitive_desc_base& pd, std::vector<std::pair<int, dnnl::memory>> args);
  Status Execute(const dnnl::stream& s) const;

 private:
  dnnl::primitive prim_;
  std::vector<dnnl::memory> keep_;  // owns what args_ points to
  std::vector<dnnl_exec_arg_t> args_;
  dnnl::memory scratchpad_;  // no buffer of its own
  size_t scratchpad_bytes_ = 0;
};

// Runs the steps on s and waits for them; oneDNN's exceptions become a Status
// (for helpers that are not a DnnlKernel, e.g. int8_gemm.h).
Status ExecuteAndWait(const dnnl::stream& s, const std::vector<Step>& steps);

// A reorder src -> dst (any layouts, same dims); scale multiplies the values.
Step MakeReorder(const dnnl::memory& src, const dnnl::memory& dst, float scale = 1.0f);
// A reorder src -> dst that multiplies by scales given at run time: the f32
// memory `scales` holds one value per index of the dims in `mask` (bit d:
// dim d), e.g. mask 2 scales a conv's weights per input channel.
Step MakeScaledReorder(const dnnl::memory& src, const dnnl::memory& dst, int mask, const dnnl::memory& scales);
// Runs a one-off reorder now (Create-time weight packing).
Status ReorderNow(const dnnl::stream& s, const dnnl::memory& src, const dnnl::memory& dst, float scale = 1.0f);

// Constant weights (src, bound to the constant's bytes) reordered into
// packed_md, shared by every kernel that packs the same bytes the same way:
// the forks of a loaded model, each with its own kernels, keep one packed
// copy. The copy lives while a kernel holds the pointer; the constant's
// bytes outlive the kernels (KernelSpec::const_inputs), so a live entry's
// address cannot be reused by other data.
Result<std::shared_ptr<const dnnl::memory>> SharedPackedConstant(const dnnl::stream& s, const dnnl::memory& src,
                                                                 const dnnl::memory::desc& packed_md);

// A memory with no buffer, bound per run with Bind().
dnnl::memory UserMemory(const dnnl::memory::desc& md);
// Cheap for plain layouts (no padding to zero): sets the user pointer.
inline void Bind(const dnnl::memory& m, const void* p) { dnnl_memory_set_data_handle(m.get(), const_cast<void*>(p)); }

// Base for kernels: keeps the stream and turns exceptions in Run into Status.
class DnnlKernel : public Kernel {
 public:
  explicit DnnlKernel(const KernelSpec& spec) : spec_name_(spec.name), spec_op_(spec.op), stream_(NewStream()) {}
  Status Run(const void* const* inputs, void* const* outputs) final;

 protected:
  virtual Status RunImpl(const void* const* inputs, void* const* outputs) = 0;
  // Binds the temporaries, then runs the steps.
  Status Execute(const std::vector<Step>& steps) const;
  // Waits for the steps run so far (before own loops read their output).
  Status Wait() const;
  const dnnl::stream& stream() const { return stream_; }
  // A memory used only inside one run (an input reordered into the
  // primitive's layout, say): it has no buffer of its own, Execute binds it
  // to the running thread's scratch memory (thread_scratch.h).
  dnnl::memory Temporary(const dnnl::memory::desc& md);

 private:
  std::string spec_name_, spec_op_;
  dnnl::stream stream_;
  std::vector<std::pair<dnnl::memory, size_t>> temporaries_;  // and their offsets
  size_t temporary_bytes_ = 0;
};

}  // namespace ge::hal::dnnl_util
