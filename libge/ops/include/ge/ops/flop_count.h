// FLOPs of a node from its op type, attributes and static shapes: what
// ge-dump flops prints and what ge-run --profile_table divides by time to
// give each op's achieved GFLOP/s (docs/benchmarks.md#flops).
//
// A multiply-add counts 2, as oneDNN's and every roofline's figures do:
//   Conv            2 * out elements * (C_in / group) * kernel window,
//                   + 1 per output for the bias, the fused residual and a
//                   fused activation each (depthwise: C_in / group = 1);
//   ConvTranspose   2 * in elements * (C_out / group) * kernel window, + bias;
//   MatMul, Gemm    2 * out elements * K (batched and broadcast alike), + 1
//                   per output for Gemm's C or FusedMatMul's bias;
//   pooling         1 per output per window element (global: 1 per input);
//   elementwise     1 per output element per operation (an activation such
//                   as Sigmoid or Gelu counts 1: an estimate);
//   BatchNorm       2 per element (scale and shift, inference);
//   Layer/Instance/Group norm  5 per element (mean, variance, normalise) + 1
//                   each for scale and bias; Softmax 5 per element;
//   FusedAttention  per score (batch x Sq x Sk): 2 * D + 2 * Dv for the two
//                   products, 1 scale, 1 mask (when given), 5 softmax;
//   reductions      1 per input element;
//   data movement   0 (Reshape, Transpose, Concat, Gather, Slice, TransData, Cast, ...).
// Ops not listed count 0. The count is of the node as compiled: fused nodes
// count their post-ops, folded BatchNorms count nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ge/ir/graph.h"

namespace ge {

// FLOPs of one execution of `node`; nullopt when a shape it needs is not
// static (a dynamic model's unknown dims) or the count does not fit int64.
std::optional<int64_t> FlopCount(const Node& node);

struct NodeFlops {
  std::string name, type;
  std::optional<int64_t> flops;
};

// Every node of `graph` in topological order (node order when the graph has
// a cycle), then the nodes of its subgraphs named "parent/child"; IO and
// Const nodes are left out.
std::vector<NodeFlops> CountGraphFlops(const Graph& graph);

// The sum of the known counts.
int64_t TotalFlops(const std::vector<NodeFlops>& rows);

}  // namespace ge
