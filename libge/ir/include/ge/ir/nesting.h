// How deep subgraphs may nest (an If in a Loop body in an If branch is
// three levels). Every reader of a nested form refuses deeper input with an
// error instead of recursing until the stack runs out: the .ge text, the .om
// graph, the ONNX and TF parsers. Real models nest a few levels.
#pragma once

namespace ge {

inline constexpr int kMaxSubgraphNesting = 32;

}  // namespace ge
