// The layout bookkeeping of the TF parser. TF sees NHWC activations; ge's
// conv/pool/norm kernels take NCHW. A 4-D value may therefore be held
// physically as NCHW while TF's logical view of it stays NHWC. These helpers
// translate between the two views: permutations, axes and host-side
// transposes of constants.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "ge/ir/tensor.h"

namespace ge::tf_parser {

// Transpose perms (output dim i = input dim perm[i]).
inline const std::vector<int64_t> kNhwcToNchw = {0, 3, 1, 2};
inline const std::vector<int64_t> kNchwToNhwc = {0, 2, 3, 1};

// The NCHW (physical) axis that holds logical NHWC axis `axis` (0..3).
inline int64_t PhysicalAxis(int64_t axis) { return kNchwToNhwc[static_cast<size_t>(axis)]; }

// out[i] = dims[perm[i]].
std::vector<int64_t> PermuteDims(const std::vector<int64_t>& dims, const std::vector<int64_t>& perm);

// The bytes of `t` transposed by `perm` (any element type), computed on the host.
Tensor TransposeTensor(const Tensor& t, const std::vector<int64_t>& perm);

// Removing the logical NHWC axes `dropped` from a value held as NCHW leaves
// the remaining axes in TF's order (so the result needs no transpose back):
// true unless C survives together with H or W.
bool DropKeepsLogicalOrder(const std::set<int64_t>& dropped);

}  // namespace ge::tf_parser
