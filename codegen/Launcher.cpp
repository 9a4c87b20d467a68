//===- Launcher.cpp - aot-compile: the cache, then the compiler -----------===//
//
// aot-compile is this small program, which links neither MLIR nor LLVM:
// loading their libraries takes about 30 ms before main, longer than the
// whole answer to a cache hit. It writes a hit's outputs itself; any other
// command line runs aot-compile-driver (the compiler, aot-compile-driver.cpp)
// in its place, with the same arguments.
//
//===----------------------------------------------------------------------===//
#include "Cache.h"
#include "Support/ToolMain.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

constexpr const char *kDriver = "aot-compile-driver";

/// The compiler executable: beside this one (the build tree), else where
/// the install puts it relative to the bin directory.
std::optional<std::string> findDriver(std::string &looked) {
  std::error_code ec;
  std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    return std::nullopt;
  for (const std::filesystem::path &candidate :
       {self.parent_path() / kDriver,
        self.parent_path() / AOT_DRIVER_FROM_BINDIR / kDriver}) {
    std::filesystem::path normal = candidate.lexically_normal();
    if (access(normal.c_str(), X_OK) == 0)
      return normal.string();
    looked += (looked.empty() ? "" : " and ") + normal.string();
  }
  return std::nullopt;
}

bool given(const std::vector<std::string> &args, const char *flag) {
  return std::find(args.begin(), args.end(), flag) != args.end();
}

/// The exit status of a cache hit, written here; nullopt: run the compiler.
std::optional<int> answerFromCache(const std::vector<std::string> &args,
                                   const std::string &driver) {
  auto cache = aot::cli::ArtifactCache::forCompile(args, driver);
  if (!cache || !cache->outputsAreSafe())
    return std::nullopt;
  auto hit = cache->lookup();
  if (!hit)
    return std::nullopt;
  if (given(args, "--cache-report"))
    std::cerr << "note: cache hit: " << cache->path() << "\n";
  aot::WriteIf when = given(args, "--write-if-changed") ? aot::WriteIf::Changed
                                                        : aot::WriteIf::Always;
  if (auto error = cache->writeHit(*hit, when)) {
    std::cerr << *error << "\n";
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return aot::toolMain(
      "aot-compile", argc, argv, [&](const std::vector<std::string> &args) {
        std::string looked;
        std::optional<std::string> driver = findDriver(looked);
        if (!driver) {
          std::cerr << "error: aot-compile cannot find the compiler, "
                    << kDriver
                    << (looked.empty()
                            ? std::string(" (/proc/self/exe unreadable)")
                            : " (looked for " + looked + ")")
                    << "\n";
          return 1;
        }
        if (auto status = answerFromCache(args, *driver))
          return *status;
        execv(driver->c_str(), argv);
        std::cerr << "error: aot-compile cannot run the compiler " << *driver
                  << ": " << std::strerror(errno) << "\n";
        return 1;
      });
}
