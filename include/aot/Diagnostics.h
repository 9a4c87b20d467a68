//===- Diagnostics.h - errors with locations, returned not printed --------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace aot {

enum class Severity { Error, Warning, Note, Remark };

/// One message from the compiler, with the source position it is about when
/// there is one (`file` empty otherwise).
struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;

  /// `file:line:col: error: message`, or `error: message` without a location.
  std::string str() const;
};

/// A failure: one or more diagnostics, the first of which is the error.
class Error {
public:
  Error() = default;
  explicit Error(std::vector<Diagnostic> diagnostics)
      : diagnostics_(std::move(diagnostics)) {}
  /// An error without a source location.
  static Error message(std::string text);
  /// An error about a position in a file.
  static Error at(std::string file, unsigned line, unsigned column,
                  std::string text);

  const std::vector<Diagnostic> &diagnostics() const { return diagnostics_; }
  /// Every diagnostic, one per line, in `file:line:col: error: ...` form.
  std::string str() const;

private:
  std::vector<Diagnostic> diagnostics_;
};

/// A value or the Error that prevented it. Check with `if (result)` before
/// dereferencing; `error()` is only valid on failure.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error error) : state_(std::move(error)) {}

  explicit operator bool() const { return state_.index() == 0; }
  T &operator*() { return std::get<0>(state_); }
  const T &operator*() const { return std::get<0>(state_); }
  T *operator->() { return &std::get<0>(state_); }
  const T *operator->() const { return &std::get<0>(state_); }
  const Error &error() const { return std::get<1>(state_); }

private:
  std::variant<T, Error> state_;
};

/// Success, or the Error that happened.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}
  static Status ok() { return {}; }
  explicit operator bool() const { return !error_; }
  const Error &error() const { return *error_; }

private:
  std::optional<Error> error_;
};

} // namespace aot
