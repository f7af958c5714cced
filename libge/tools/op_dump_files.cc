#include "ge/tools/op_dump_files.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "ge_base/file_io.h"

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

Result<OpDumpDir> ReadOpDump(const std::string& dir) {
  const std::string index = dir + "/dump.json";
  std::ifstream f(index, std::ios::binary);
  if (!f) return NotFound(index + ": no such file (not an op dump directory? ge-run --dump DIR writes one)");
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
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
      op.output = e.at("output").get<int32_t>();
      op.inputs = e.value("inputs", std::vector<std::string>{});
      op.file = e.at("file").get<std::string>();
      if (op.file.empty() || op.file.find('/') != std::string::npos || op.file.find("..") != std::string::npos)
        return Corrupt(index + ": op " + op.node + ": bad file name '" + op.file + "'");
      GE_ASSIGN_OR_RETURN(op.tensor, ReadNpy(dir + "/" + op.file));
      const std::string dtype = e.at("dtype").get<std::string>();
      const auto shape = e.at("shape").get<std::vector<int64_t>>();
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
