// How deep subgraphs may nest (an If in a Loop body in an If branch is
// three levels). Every reader of a nested form refuses deeper input with an
// error instead of recursing until the stack runs out: the .ge text, the .om
// graph, the ONNX and TF parsers. Real models nest a few levels. It stays
// below 33: protobuf refuses a message nested 100 deep, three messages per
// level in ONNX and .om, and the limit must be the check that speaks.
#pragma once

namespace ge {

inline constexpr int kMaxSubgraphNesting = 24;

}  // namespace ge
