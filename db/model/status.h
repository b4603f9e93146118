// Status and StatusOr: how every fallible call in flopscope reports failure. A message is one line a user
// can act on ("FILE: what is wrong"); the code says what kind of failure it was, and the CLI maps codes
// to exit statuses.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace flopscope {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad user input: a spec, an option, a file of the wrong kind
  kNotFound,         // a file or a named thing does not exist
  kAlreadyExists,    // an output exists and --force was not given
  kIoError,          // reading or writing failed
  kCorrupt,          // the input is of the right kind but damaged or truncated
  kUnsupported,      // a valid input this build or machine cannot handle (newer schema, no GPU)
  kUnavailable,      // a needed resource is busy or missing at run time (driver, permissions)
  kInternal,         // a bug in flopscope
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with context, e.g. the file name: "run.db: " + "not a run database".
  Status WithContext(const std::string& context) const {
    if (ok()) return *this;
    return {code_, context + ": " + message_};
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) {
  return {StatusCode::kInvalidArgument, std::move(m)};
}
inline Status NotFound(std::string m) {
  return {StatusCode::kNotFound, std::move(m)};
}
inline Status AlreadyExists(std::string m) {
  return {StatusCode::kAlreadyExists, std::move(m)};
}
inline Status IoError(std::string m) {
  return {StatusCode::kIoError, std::move(m)};
}
inline Status Corrupt(std::string m) {
  return {StatusCode::kCorrupt, std::move(m)};
}
inline Status Unsupported(std::string m) {
  return {StatusCode::kUnsupported, std::move(m)};
}
inline Status Unavailable(std::string m) {
  return {StatusCode::kUnavailable, std::move(m)};
}
inline Status Internal(std::string m) {
  return {StatusCode::kInternal, std::move(m)};
}

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : v_(std::move(status)) { assert(!std::get<Status>(v_).ok()); }  // NOLINT
  StatusOr(T value) : v_(std::move(value)) {}                                              // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(v_); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<Status, T> v_;
};

}  // namespace flopscope

#define FS_CONCAT_INNER(a, b) a##b
#define FS_CONCAT(a, b) FS_CONCAT_INNER(a, b)

#define FS_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::flopscope::Status fs_status_ = (expr); \
    if (!fs_status_.ok()) return fs_status_; \
  } while (false)

#define FS_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()

#define FS_ASSIGN_OR_RETURN(lhs, expr) FS_ASSIGN_OR_RETURN_IMPL(FS_CONCAT(fs_statusor_, __LINE__), lhs, expr)
