// Status: errors as values. Every layer returns a Status (or a Result<T>) and
// adds its context with Annotate(), so the user sees one line: what and where.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace ge {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,   // bad flag, bad shape, bad attribute
  kNotFound,          // missing file, missing node
  kUnsupported,       // op or feature not supported (yet)
  kCorrupt,           // bytes that are not what they claim (bad .om, bad .onnx)
  kInternal,          // a bug in ge
  kIo,                // read/write failure
  kTimeout,
  kAborted,
};

const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes context: Status(..., "shape mismatch").Annotate("node conv1 (Conv)")
  // reads "node conv1 (Conv): shape mismatch".
  Status& Annotate(const std::string& context) {
    if (!ok()) message_ = context + ": " + message_;
    return *this;
  }
  Status Annotated(const std::string& context) const {
    Status s = *this;
    s.Annotate(context);
    return s;
  }
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) { return Status(StatusCode::kInvalidArgument, std::move(m)); }
inline Status NotFound(std::string m) { return Status(StatusCode::kNotFound, std::move(m)); }
inline Status Unsupported(std::string m) { return Status(StatusCode::kUnsupported, std::move(m)); }
inline Status Corrupt(std::string m) { return Status(StatusCode::kCorrupt, std::move(m)); }
inline Status Internal(std::string m) { return Status(StatusCode::kInternal, std::move(m)); }
inline Status IoError(std::string m) { return Status(StatusCode::kIo, std::move(m)); }

// Result<T>: a value or the Status saying why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  // An OK status carries no value, so it is refused (as absl's StatusOr does):
  // ok() must never promise a value() that is not there.
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    if (status_.ok()) status_ = Internal("Result constructed from an OK status: no value");
  }
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace ge

#define GE_CONCAT_INNER(a, b) a##b
#define GE_CONCAT(a, b) GE_CONCAT_INNER(a, b)

#define GE_RETURN_IF_ERROR(expr)            \
  do {                                      \
    ::ge::Status _ge_status = (expr);       \
    if (!_ge_status.ok()) return _ge_status; \
  } while (0)

#define GE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()

// GE_ASSIGN_OR_RETURN(auto x, MakeX());
#define GE_ASSIGN_OR_RETURN(lhs, expr) GE_ASSIGN_OR_RETURN_IMPL(GE_CONCAT(_ge_result_, __LINE__), lhs, expr)
