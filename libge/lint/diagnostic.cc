#include "ge/lint/diagnostic.h"

namespace ge::lint {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kNote: return "note";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "?";
}

Status ParseSeverity(const std::string& text, const std::string& flag, Severity* out) {
  for (Severity s : {Severity::kNote, Severity::kWarning, Severity::kError})
    if (text == SeverityName(s)) {
      *out = s;
      return Status::Ok();
    }
  return InvalidArgument(flag + ": '" + text + "' is not one of note, warning, error");
}

}  // namespace ge::lint
