// Einsum by its definition: every output element is the sum, over the
// letters the output lacks, of the product of the inputs at the positions
// the letters name. A letter repeated in one term walks the diagonal (its
// strides add up); ellipsis dims are letters of their own, right-aligned
// and broadcast (a dim of 1 does not move). Sums are kept in double for
// floats and int64 for integers.
//
// One loop for every equation: correct first. The product count is the
// output's size times the summed letters' sizes.
#include <algorithm>
#include <cctype>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using Dims = std::vector<int64_t>;

constexpr int kEllipsisLabel = 128;  // ellipsis dim j is label 128 + j (letters are ASCII)

struct EinsumPlan {
  Dims out_dims;                // sizes of the output letters, in output order
  Dims sum_dims;                // sizes of the summed letters
  std::vector<Dims> out_steps;  // per input: its stride per output letter
  std::vector<Dims> sum_steps;  // per input: its stride per summed letter
};

// Labels of each dim of a term for a tensor of `rank` dims (the ellipsis
// covers `ell` dims, which take the last `ell` of the `max_ell` labels).
Result<std::vector<int>> TermLabels(const KernelSpec& spec, const std::string& term, size_t rank, size_t max_ell) {
  const size_t dots = term.find("...");
  const size_t letters = term.size() - (dots == std::string::npos ? 0 : 3);
  if (letters > rank || (dots == std::string::npos && letters != rank))
    return Bad(spec, "term '" + term + "' does not fit rank " + std::to_string(rank));
  const size_t ell = rank - letters;
  std::vector<int> labels;
  for (size_t c = 0; c < term.size(); ++c) {
    if (c == dots) {
      for (size_t j = 0; j < ell; ++j) labels.push_back(kEllipsisLabel + static_cast<int>(max_ell - ell + j));
      c += 2;
    } else if (std::isalpha(static_cast<unsigned char>(term[c]))) {
      labels.push_back(term[c]);
    } else {
      return Bad(spec, "term '" + term + "' holds '" + std::string(1, term[c]) + "'");
    }
  }
  return labels;
}

Result<EinsumPlan> PlanEinsum(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, SIZE_MAX, 1, 1));
  const DataType t = spec.inputs[0].dtype;
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[0], "input",
                                {DataType::kFloat32, DataType::kFloat64, DataType::kInt32, DataType::kInt64}));
  for (const auto& x : spec.inputs)
    if (x.dtype != t) return Bad(spec, "inputs must share one dtype");
  if (spec.outputs[0].dtype != t) return Bad(spec, "output dtype must be the inputs'");
  std::string eq;
  for (char c : spec.attrs.GetString("equation", ""))
    if (c != ' ') eq += c;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != spec.inputs.size()) return Bad(spec, "equation '" + eq + "' does not match the input count");
  size_t max_ell = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const size_t letters = terms[i].size() - (terms[i].find("...") == std::string::npos ? 0 : 3);
    if (spec.inputs[i].dims.size() >= letters) max_ell = std::max(max_ell, spec.inputs[i].dims.size() - letters);
  }
  // Sizes per label; a 1 gives way to any other size only in ellipsis dims.
  std::vector<int64_t> size(kEllipsisLabel + max_ell, -1);
  std::vector<int> uses(size.size(), 0);
  std::vector<std::vector<int>> labels;
  for (size_t i = 0; i < terms.size(); ++i) {
    GE_ASSIGN_OR_RETURN(auto l, TermLabels(spec, terms[i], spec.inputs[i].dims.size(), max_ell));
    for (size_t d = 0; d < l.size(); ++d) {
      int64_t& s = size[l[d]];
      const int64_t n = spec.inputs[i].dims[d];
      ++uses[l[d]];
      if (s < 0 || (l[d] >= kEllipsisLabel && s == 1))
        s = n;
      else if (n != s && !(l[d] >= kEllipsisLabel && n == 1))
        return Bad(spec, "equation '" + eq + "': sizes " + std::to_string(s) + " and " + std::to_string(n) + " meet");
    }
    labels.push_back(std::move(l));
  }
  std::vector<int> out;
  if (arrow != std::string::npos) {
    const std::string term = eq.substr(arrow + 2);
    GE_ASSIGN_OR_RETURN(
        out, TermLabels(spec, term, term.size() - (term.find("...") == std::string::npos ? 0 : 3) + max_ell, max_ell));
  } else {
    for (size_t j = 0; j < max_ell; ++j) out.push_back(kEllipsisLabel + static_cast<int>(j));
    for (int c = 0; c < kEllipsisLabel; ++c)
      if (uses[c] == 1) out.push_back(c);
  }
  EinsumPlan p;
  std::vector<bool> in_out(size.size(), false);
  for (int l : out) {
    if (size[l] < 0 || in_out[l]) return Bad(spec, "equation '" + eq + "': an output letter repeats or is no input's");
    in_out[l] = true;
    p.out_dims.push_back(size[l]);
  }
  std::vector<int> summed;
  for (size_t l = 0; l < size.size(); ++l)
    if (size[l] >= 0 && !in_out[l]) summed.push_back(static_cast<int>(l)), p.sum_dims.push_back(size[l]);
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, p.out_dims));
  if (p.out_dims.size() + p.sum_dims.size() > 2 * kMaxRank) return NotSupported(spec, "too many letters");
  for (size_t i = 0; i < labels.size(); ++i) {
    const Dims strides = Strides(spec.inputs[i].dims);
    auto steps = [&](const std::vector<int>& which) {
      Dims s(which.size(), 0);
      for (size_t d = 0; d < labels[i].size(); ++d)
        for (size_t k = 0; k < which.size(); ++k)
          if (labels[i][d] == which[k] && spec.inputs[i].dims[d] != 1) s[k] += strides[d];
      return s;
    };
    p.out_steps.push_back(steps(out));
    p.sum_steps.push_back(steps(summed));
  }
  return p;
}

// Advances an odometer over `dims`, moving each input's offset by its steps.
inline void Next(int64_t* pos, const Dims& dims, const std::vector<Dims>& steps, int64_t* offs) {
  for (size_t d = dims.size(); d-- > 0;) {
    for (size_t i = 0; i < steps.size(); ++i) offs[i] += steps[i][d];
    if (++pos[d] < dims[d]) return;
    for (size_t i = 0; i < steps.size(); ++i) offs[i] -= pos[d] * steps[i][d];
    pos[d] = 0;
  }
}

template <typename T, typename Acc>
Result<std::unique_ptr<Kernel>> MakeEinsum(EinsumPlan p) {
  const size_t n = p.out_steps.size();
  return MakeKernel([p = std::move(p), base = Dims(n), offs = Dims(n)](const void* const* in,
                                                                       void* const* out) mutable {
    T* y = static_cast<T*>(out[0]);
    const int64_t outs = Product(p.out_dims, 0, p.out_dims.size()), sums = Product(p.sum_dims, 0, p.sum_dims.size());
    int64_t opos[2 * kMaxRank] = {}, spos[2 * kMaxRank] = {};
    std::fill(base.begin(), base.end(), 0);
    for (int64_t o = 0; o < outs; ++o) {
      Acc acc = 0;
      offs = base;
      for (int64_t s = 0; s < sums; ++s) {
        Acc prod = 1;
        for (size_t i = 0; i < offs.size(); ++i) prod *= static_cast<Acc>(static_cast<const T*>(in[i])[offs[i]]);
        acc += prod;
        Next(spos, p.sum_dims, p.sum_steps, offs.data());
      }
      y[o] = static_cast<T>(acc);
      Next(opos, p.out_dims, p.out_steps, base.data());
    }
    return Status::Ok();
  });
}

Result<std::unique_ptr<Kernel>> CreateEinsum(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(EinsumPlan p, PlanEinsum(spec));
  switch (spec.inputs[0].dtype) {
    case DataType::kFloat64: return MakeEinsum<double, double>(std::move(p));
    case DataType::kInt32: return MakeEinsum<int32_t, int64_t>(std::move(p));
    case DataType::kInt64: return MakeEinsum<int64_t, int64_t>(std::move(p));
    default: return MakeEinsum<float, double>(std::move(p));
  }
}

}  // namespace

void RegisterEinsumKernels(KernelRegistry& r) {
  r.Register(
      "Einsum", [](const KernelSpec& s) { return PlanEinsum(s).status(); }, CreateEinsum);
}

}  // namespace ge::hal
