// The JSON form of a graph, written by ge-dump next to the text form. Same
// node order as the text form (topological, ties by insertion order), keys
// in a fixed order and attributes sorted by name, so the same graph always
// gives the same bytes; one node per line, so two dumps diff line by line:
//   {"graph": "main", "nodes": [
//     {"name":"conv1","type":"Conv","attrs":{"group":{"int":1},"pads":{"ints":[1,1,1,1]}},
//      "inputs":[{"node":"input","output":0},{"node":"w","output":0}],"control_inputs":[],
//      "outputs":[{"dtype":"f32","shape":[1,64,112,112],"format":"ND"}]}
//   ]}
// (each node is on one line; wrapped here). Absent optional inputs are null.
// Every attribute value is an object with one key naming its kind (int,
// float, string, bool, ints, floats, strings, tensor, graph). Tensors are
// described (dtype, shape, bytes, sha256; values when they are few), not
// copied: a dump of resnet18 per pass must stay small.
#pragma once

#include <string>

#include "ge/ir/graph.h"

namespace ge {

std::string GraphToJson(const Graph& g);

// Tensors with at most this many elements carry their values in the JSON.
inline constexpr int64_t kJsonMaxInlineElements = 16;

}  // namespace ge
