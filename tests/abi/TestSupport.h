//===- TestSupport.h - helpers shared by the ABI unit tests ---------------===//
#pragma once

#include "aot/abi/Error.h"
#include "aot/abi/Ownership.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace aot::abi::test {

/// Releases counted per pointer by countingRelease.
inline std::map<void *, int> &releases() {
  static std::map<void *, int> counts;
  return counts;
}

/// A release function for adoptResultBuffers that counts how often each
/// pointer is released, and frees only what was malloc'ed (not the global
/// sentinel).
inline void countingRelease(void *p) {
  ++releases()[p];
  if (p != kGlobalSentinel)
    std::free(p);
}

/// A fresh directory under the system temp dir, removed with its content.
class TempDir {
public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "aot-abi-test-XXXXXX")
            .string();
    if (!mkdtemp(pattern.data()))
      throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  /// The path of `name` inside the directory.
  std::string file(const std::string &name) const {
    return (path_ / name).string();
  }

private:
  std::filesystem::path path_;
};

/// The value of environment variable `name`, or "" when unset.
inline std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

/// Runs `f`, requires it to throw aot::abi::Error, and returns the message.
template <typename F> std::string errorMessage(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  FAIL("expected aot::abi::Error");
  return "";
}

/// CHECKs that `message` contains every one of `parts`.
template <typename... S>
void checkContains(const std::string &message, const S &...parts) {
  auto one = [&](std::string_view part) {
    INFO("message: " << message);
    INFO("expected to contain: " << part);
    CHECK(message.find(part) != std::string::npos);
  };
  (one(parts), ...);
}

} // namespace aot::abi::test

/// Checks that `expr` throws aot::abi::Error whose message contains each of
/// the given strings.
#define CHECK_ERROR_CONTAINS(expr, ...)                                        \
  ::aot::abi::test::checkContains(                                             \
      ::aot::abi::test::errorMessage([&] { (void)(expr); }), __VA_ARGS__)
