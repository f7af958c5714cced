#include "common/io_type_flags.h"

#include <map>

#include "common/app_common.h"

namespace ge::app {
namespace {

Result<DataType> TypeOf(const std::string& name, const std::string& flag) {
  static const std::map<std::string, DataType> kTypes = {
      {"FP32", DataType::kFloat32}, {"FP16", DataType::kFloat16}, {"UINT8", DataType::kUInt8}, {"INT8", DataType::kInt8}};
  auto it = kTypes.find(name);
  if (it == kTypes.end())
    return InvalidArgument("--output_type " + flag + ": '" + name + "' is not a type (FP32, FP16, UINT8, INT8)");
  return it->second;
}

}  // namespace

Result<std::vector<CompileOptions::OutputType>> ParseOutputType(const std::string& flag) {
  std::vector<CompileOptions::OutputType> out;
  if (flag.empty()) return out;
  if (flag.find(':') == std::string::npos) {
    GE_ASSIGN_OR_RETURN(DataType t, TypeOf(flag, flag));
    out.push_back({"", 0, t});
    return out;
  }
  for (const std::string& entry : SplitList(flag, ';')) {
    const size_t type_colon = entry.find_last_of(':');
    const size_t index_colon = type_colon == std::string::npos ? std::string::npos : entry.find_last_of(':', type_colon - 1);
    if (type_colon == std::string::npos || index_colon == std::string::npos || index_colon == 0)
      return InvalidArgument("--output_type " + flag + ": '" + entry + "' is not node:index:TYPE");
    CompileOptions::OutputType o;
    o.node = entry.substr(0, index_colon);
    const std::string index = entry.substr(index_colon + 1, type_colon - index_colon - 1);
    if (index.empty() || index.size() > 6 || index.find_first_not_of("0123456789") != std::string::npos)
      return InvalidArgument("--output_type " + flag + ": '" + entry + "' has no output index");
    o.index = std::stoll(index);
    GE_ASSIGN_OR_RETURN(o.dtype, TypeOf(entry.substr(type_colon + 1), flag));
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<std::string> ParseFp16Nodes(const std::string& flag) { return SplitList(flag, ';'); }

}  // namespace ge::app
