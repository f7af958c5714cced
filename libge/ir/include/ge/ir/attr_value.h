// Node attributes: one tagged value per name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ge/ir/tensor.h"

namespace ge {

class Graph;

using AttrValue = std::variant<int64_t, float, std::string, bool, std::vector<int64_t>, std::vector<float>,
                               std::vector<std::string>, Tensor, std::shared_ptr<Graph>>;

// "3", "1.5", "\"SAME\"", "[1,2]", "tensor<f32[64]>", "graph<then>"
std::string AttrToString(const AttrValue& v);

}  // namespace ge
