// Kernels of the ops whose output shapes only the computation knows
// (NonZero, NonMaxSuppression, Unique, Compress): a compute step gives the
// output dims and whatever the outputs are made from, a write step fills the
// outputs. They allocate per call: the amount of work is the data's.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/loop_common.h"

namespace ge::hal::loop {

using OutputShapes = std::vector<std::vector<int64_t>>;

// Output i's dims as created: `want` with -1 where the data decides; the
// spec may hold -1 there (dynamic) or a value the compiler computed from
// constant inputs (checked when the kernel runs).
inline Status CheckComputedDims(const KernelSpec& spec, size_t i, const std::vector<int64_t>& want) {
  const std::vector<int64_t>& got = spec.outputs[i].dims;
  bool ok = got.size() == want.size();
  for (size_t k = 0; ok && k < want.size(); ++k) ok = want[k] < 0 || got[k] == want[k];
  if (!ok)
    return Bad(spec, "output " + std::to_string(i) + " dims " + DimsStr(got) + " do not match " + DimsStr(want) +
                         " implied by the inputs and attributes (-1: decided by the data)");
  return Status::Ok();
}

inline std::string ShapesStr(const OutputShapes& shapes) {
  std::string s;
  for (const auto& d : shapes) {
    if (!s.empty()) s += ' ';
    s += DimsStr(d);
  }
  return s;
}

// R of kernels whose write step needs the dims alone (it reads the inputs again).
struct ShapesOnly {
  OutputShapes dims;
};

// Unique and Compress pick elements of the flattened input or, with the
// `axis` attribute, slices along it: x as [outer, n, inner] (flattened:
// outer = inner = 1). The output is `dims` with the count of those picked
// at `axis` (-1 here); flattened, [-1].
struct AxisPick {
  int64_t outer = 1, n = 0, inner = 1;
  std::vector<int64_t> dims = {-1};
  size_t axis = 0;
};

inline Result<AxisPick> PlanAxisPick(const KernelSpec& spec, const TensorInfo& x) {
  AxisPick p;
  p.n = x.NumElements();
  if (!spec.attrs.Has("axis")) return p;
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, spec.attrs.GetInt("axis", 0), rank));
  p.axis = static_cast<size_t>(axis);
  p.outer = Product(x.dims, 0, p.axis);
  p.n = x.dims[p.axis];
  p.inner = Product(x.dims, p.axis + 1, x.dims.size());
  p.dims = x.dims;
  p.dims[p.axis] = -1;
  return p;
}

// R holds `OutputShapes dims` and what the write step needs. OutputDims
// computes R and keeps it for the Run that follows (the runtime's order,
// hal/kernel.h). A Run without it, when the compiler knew the dims from
// constant inputs, computes R itself and checks them, so it never writes
// past a buffer sized by the spec.
template <typename R, typename Compute, typename Write>
class ComputedKernel final : public Kernel {
 public:
  ComputedKernel(const KernelSpec& spec, Compute compute, Write write)
      : where_(Where(spec)), compute_(std::move(compute)), write_(std::move(write)) {
    for (const TensorInfo& o : spec.outputs) created_.push_back(o.dims);
  }

  Status OutputDims(const void* const* in, OutputShapes& dims) override {
    GE_ASSIGN_OR_RETURN(R r, compute_(in));
    dims = r.dims;
    pending_ = std::move(r);
    return Status::Ok();
  }

  Status Run(const void* const* in, void* const* out) override {
    if (!pending_) {
      GE_ASSIGN_OR_RETURN(R r, compute_(in));
      if (r.dims != created_)
        return InvalidArgument(where_ + ": the outputs come out as " + ShapesStr(r.dims) + ", not " +
                               ShapesStr(created_) + " as created (ask OutputDims before Run)");
      pending_ = std::move(r);
    }
    write_(*pending_, in, out);
    pending_.reset();
    return Status::Ok();
  }

 private:
  std::string where_;
  Compute compute_;
  Write write_;
  OutputShapes created_;
  std::optional<R> pending_;
};

// compute: Result<R>(const void* const* in); write: void(const R&, in, out).
template <typename R, typename Compute, typename Write>
Result<std::unique_ptr<Kernel>> MakeComputedKernel(const KernelSpec& spec, Compute compute, Write write) {
  return std::unique_ptr<Kernel>(new ComputedKernel<R, Compute, Write>(spec, std::move(compute), std::move(write)));
}

}  // namespace ge::hal::loop
