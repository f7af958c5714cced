// ge-dump flops: the FLOP count of every node of a compiled model (ge/ops/
// flop_count.h) as a table or JSON, for comparing a run's time against.
#pragma once

#include <string>
#include <vector>

#include "ge/ops/flop_count.h"

namespace ge::dump {

// One line per node with work (FLOPs > 0 or unknown) in graph order, then
// one per op type, then the total in GFLOP.
std::string FlopsText(const std::vector<NodeFlops>& rows, const std::string& model);
// {"model", "flops", "gflop", "unknown": [names], "nodes": [{name, type, flops}], "ops": [{op, nodes, flops}]}
std::string FlopsJson(const std::vector<NodeFlops>& rows, const std::string& model);

}  // namespace ge::dump
