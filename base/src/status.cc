#include "ge_base/status.h"

namespace ge {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kCorrupt: return "corrupt";
    case StatusCode::kInternal: return "internal error";
    case StatusCode::kIo: return "i/o error";
    case StatusCode::kTimeout: return "timeout";
    case StatusCode::kAborted: return "aborted";
  }
  return "unknown";
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  return message_;
}

}  // namespace ge
