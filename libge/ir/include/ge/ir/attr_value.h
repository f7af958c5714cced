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

// "3", "1.5", "1.0" (a float), "\"SAME\"", "[1,2]", "floats[]", "tensor<f32[64]>",
// "graph<then>": the text form's attribute values (ge/ir/text_parse.h reads them back).
std::string AttrToString(const AttrValue& v);
// "\"a \\\"b\\\"\"": double quotes, with \" \\ and \n escaped.
std::string QuoteString(const std::string& s);
// True when a node, op type, attribute or graph name prints bare in the text
// form: letters, digits and _ . - / @ $; anything else prints quoted.
bool IsPlainName(const std::string& s);
std::string NameText(const std::string& s);

}  // namespace ge
