#include "ge/tools/op_dump_files.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "ge_base/file_io.h"
#include "ge_base/regular_file.h"

namespace ge::tools {
namespace {

constexpr const char* kDumpFormat = "ge-op-dump";
constexpr int kDumpVersion = 1;

// "0003_conv1_0.npy": the order keeps names unique and sorted; characters a
// file name should not hold become '_'.
std::string DumpFileName(size_t order, const std::string& node, int32_t output) {
  std::string safe;
  for (char c : node.substr(0, 96)) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
    safe += ok ? c : '_';
  }
  char prefix[24];
  std::snprintf(prefix, sizeof(prefix), "%04zu_", order);
  return prefix + safe + "_" + std::to_string(output) + ".npy";
}

}  // namespace

Status WriteOpDump(const std::string& dir, const std::string& model_name, const std::vector<OpOutput>& ops) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError(dir + ": " + ec.message());
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < ops.size(); ++i) {
    const OpOutput& o = ops[i];
    const std::string file = DumpFileName(i, o.node, o.output);
    GE_RETURN_IF_ERROR(WriteNpy(dir + "/" + file, o.desc, o.bytes.data()));
    list.push_back({{"node", o.node},
                    {"type", o.type},
                    {"output", o.output},
                    {"dtype", DataTypeName(o.desc.dtype)},
                    {"shape", o.desc.dims},
                    {"file", file},
                    {"inputs", o.inputs}});
  }
  nlohmann::json j = {{"format", kDumpFormat}, {"version", kDumpVersion}, {"model", model_name}, {"ops", list}};
  return WriteFileAtomically(dir + "/dump.json", j.dump(1) + "\n");
}

namespace {

// An integer of dump.json in [lo, hi]: a number too large for the field
// (2^70 as an output index) or a fraction is refused, never converted.
Result<int64_t> OpDumpInteger(const nlohmann::json& v, int64_t lo, int64_t hi, const std::string& where) {
  const bool in_range = v.is_number_integer() && !(v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi)) &&
                        v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
  if (!in_range)
    return Corrupt(where + " is " + v.dump() + ", not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.get<int64_t>();
}

}  // namespace

Result<OpDumpDir> ReadOpDump(const std::string& dir) {
  const std::string index = dir + "/dump.json";
  Result<std::string> read = ReadRegularFile(index);
  if (read.status().code() == StatusCode::kNotFound)
    return NotFound(index + ": no such file (not an op dump directory? ge-run --dump DIR writes one)");
  GE_ASSIGN_OR_RETURN(const std::string text, std::move(read));
  OpDumpDir d;
  d.dir = dir;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object() || j.value("format", "") != kDumpFormat)
      return Corrupt(index + ": not an op dump (format is not \"" + kDumpFormat + "\")");
    if (j.value("version", 0) != kDumpVersion)
      return Corrupt(index + ": op dump version " + j.value("version", nlohmann::json()).dump() + ", this ge reads " +
                     std::to_string(kDumpVersion));
    d.model = j.value("model", "");
    for (const auto& e : j.at("ops")) {
      DumpedOp op;
      op.node = e.at("node").get<std::string>();
      op.type = e.at("type").get<std::string>();
      const std::string where = index + ": op " + op.node;
      GE_ASSIGN_OR_RETURN(const int64_t output, OpDumpInteger(e.at("output"), 0, INT32_MAX, where + ": output"));
      op.output = static_cast<int32_t>(output);
      op.inputs = e.value("inputs", std::vector<std::string>{});
      op.file = e.at("file").get<std::string>();
      if (op.file.empty() || op.file.find('/') != std::string::npos || op.file.find("..") != std::string::npos)
        return Corrupt(index + ": op " + op.node + ": bad file name '" + op.file + "'");
      GE_ASSIGN_OR_RETURN(op.tensor, ReadNpy(dir + "/" + op.file));
      const std::string dtype = e.at("dtype").get<std::string>();
      std::vector<int64_t> shape;
      for (const auto& dim : e.at("shape")) {
        GE_ASSIGN_OR_RETURN(shape.emplace_back(), OpDumpInteger(dim, 0, INT64_MAX, where + ": a shape dim"));
      }
      if (dtype != DataTypeName(op.tensor.desc.dtype) || shape != op.tensor.desc.dims)
        return Corrupt(dir + "/" + op.file + ": holds " + DataTypeName(op.tensor.desc.dtype) +
                       DimsToString(op.tensor.desc.dims) + ", dump.json says " + dtype + DimsToString(shape));
      d.ops.push_back(std::move(op));
    }
  } catch (const nlohmann::json::exception& e) {
    return Corrupt(index + ": " + e.what());
  }
  return d;
}

}  // namespace ge::tools
