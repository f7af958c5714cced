// ATC's mixed-precision configuration files: --modify_mixlist (JSON) and
// --keep_dtype (text), read into CompileOptions::Precision.
#include <sstream>

#include "config_json.h"
#include "ge/compiler.h"
#include "ge_base/regular_file.h"

namespace ge {
namespace {

// {"to-add": [...], "to-remove": [...]} of one list.
Status ReadList(const std::string& where, const nlohmann::json& j, std::set<std::string>* add,
                std::set<std::string>* remove) {
  if (!j.is_object()) return InvalidArgument(where + " must be an object with \"to-add\" and \"to-remove\"");
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::set<std::string>* into = it.key() == "to-add" ? add : it.key() == "to-remove" ? remove : nullptr;
    if (!into) return InvalidArgument(where + ": unknown key '" + it.key() + "' (to-add, to-remove)");
    if (!it.value().is_array()) return InvalidArgument(where + "." + it.key() + " must be a list of op types");
    for (const auto& v : it.value()) {
      if (!v.is_string()) return InvalidArgument(where + "." + it.key() + " must be a list of op types");
      into->insert(v.get<std::string>());
    }
  }
  return Status::Ok();
}

}  // namespace

Status ReadMixList(const std::string& path, CompileOptions::Precision* p) {
  GE_ASSIGN_OR_RETURN(const nlohmann::json j, ReadConfigJsonObject(path, "mix list (--modify_mixlist)"));
  for (auto mode = j.begin(); mode != j.end(); ++mode) {
    // ATC keys the lists by mode; the bf16 variant names the same lists.
    if (mode.key() != "allow_mix_precision" && mode.key() != "allow_mix_precision_bf16")
      return InvalidArgument(path + ": unknown key '" + mode.key() + "' (allow_mix_precision)");
    if (!mode.value().is_object()) return InvalidArgument(path + ": " + mode.key() + " must be an object");
    for (auto list = mode.value().begin(); list != mode.value().end(); ++list) {
      const std::string where = path + ": " + mode.key() + "." + list.key();
      if (list.key() == "white-list")
        GE_RETURN_IF_ERROR(ReadList(where, list.value(), &p->white_add, &p->white_remove));
      else if (list.key() == "gray-list")
        GE_RETURN_IF_ERROR(ReadList(where, list.value(), &p->gray_add, &p->gray_remove));
      else if (list.key() == "black-list")
        GE_RETURN_IF_ERROR(ReadList(where, list.value(), &p->black_add, &p->black_remove));
      else
        return InvalidArgument(path + ": unknown list '" + list.key() + "' (white-list, gray-list, black-list)");
    }
  }
  return Status::Ok();
}

Status ReadKeepDtype(const std::string& path, CompileOptions::Precision* p) {
  GE_ASSIGN_OR_RETURN(std::string text, ReadRegularFile(path, "keep-dtype file (--keep_dtype)"));
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    line = line.substr(b);
    const std::string where = path + ":" + std::to_string(n);
    if (line.rfind("OpName::", 0) == 0 && line.size() > 8)
      p->keep_nodes.insert(line.substr(8));
    else if (line.rfind("OpType::", 0) == 0 && line.size() > 8)
      p->keep_types.insert(line.substr(8));
    else
      return InvalidArgument(where + ": '" + line + "' is not OpName::<node> or OpType::<op type>");
  }
  return Status::Ok();
}

}  // namespace ge
