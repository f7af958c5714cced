// Typed reads of a NodeDef's attributes. Absent attributes take the given
// default (TF's op-def default), or fail when there is none; an attribute of
// the wrong kind always fails. Errors name the node: "node conv1 (Conv2D):
// attribute 'strides' ...".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ge_base/status.h"
#include "tf_graph.pb.h"

namespace ge::tf_parser {

// "conv1 (Conv2D)", the prefix of every message about a TF node.
std::string NodeLabel(const tf::NodeDef& n);
// InvalidArgument / Unsupported "node conv1 (Conv2D): msg".
Status NodeError(const tf::NodeDef& n, const std::string& msg);
Status NodeUnsupported(const tf::NodeDef& n, const std::string& msg);

const tf::AttrValue* FindAttr(const tf::NodeDef& n, const std::string& name);

Result<int64_t> AttrInt(const tf::NodeDef& n, const std::string& name, std::optional<int64_t> def = std::nullopt);
Result<float> AttrFloat(const tf::NodeDef& n, const std::string& name, std::optional<float> def = std::nullopt);
Result<bool> AttrBool(const tf::NodeDef& n, const std::string& name, std::optional<bool> def = std::nullopt);
Result<std::string> AttrString(const tf::NodeDef& n, const std::string& name,
                               std::optional<std::string> def = std::nullopt);
Result<std::vector<int64_t>> AttrInts(const tf::NodeDef& n, const std::string& name,
                                      std::optional<std::vector<int64_t>> def = std::nullopt);
// A DataType attribute ("T", "dtype", "DstT"), as TF's enum value.
Result<int> AttrType(const tf::NodeDef& n, const std::string& name, std::optional<int> def = std::nullopt);

}  // namespace ge::tf_parser
