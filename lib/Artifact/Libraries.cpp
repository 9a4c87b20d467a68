//===- Libraries.cpp - static and shared libraries ------------------------===//
#include "Artifact/Writers.h"
#include "Backend/LinkTable.h"
#include "Support/FileWriter.h"

#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstdlib>

namespace aot {

Status writeStaticLibrary(const std::string &path, const std::string &module,
                          const std::string &object, WriteIf when) {
  std::string memberName = module + ".o";
  llvm::NewArchiveMember member(llvm::MemoryBufferRef(object, memberName));
  member.MemberName = memberName;
  // Built in memory, so that the archive reaches the file through the same
  // atomic writer as every other output.
  auto archive = llvm::writeArchiveToBuffer(
      {std::move(member)}, llvm::SymtabWritingMode::NormalSymtab,
      llvm::object::Archive::K_GNU, /*Deterministic=*/true, /*Thin=*/false);
  if (!archive)
    return Error::at(path, 0, 0,
                     "cannot write archive: " +
                         llvm::toString(archive.takeError()));
  if (std::error_code ec =
          writeFileAtomically(path, (*archive)->getBuffer(), when))
    return Error::at(path, 0, 0, "cannot write archive: " + ec.message());
  return Status::ok();
}

/// The runtime archive: $AOT_RUNTIME_LIBRARY, else the copy installed beside
/// the running program (bin/../lib), else the one at the configured install
/// prefix, else the one in the build tree this library was built in.
static std::string runtimeArchive() {
  if (const char *env = std::getenv("AOT_RUNTIME_LIBRARY"))
    return env;
  std::vector<std::string> candidates;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!exe.empty()) {
    llvm::SmallString<256> beside(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(beside, AOT_RUNTIME_RELATIVE_PATH);
    candidates.push_back(std::string(beside));
  }
  candidates.push_back(AOT_RUNTIME_INSTALL_PATH);
  candidates.push_back(AOT_RUNTIME_BUILD_PATH);
  for (const std::string &candidate : candidates)
    if (llvm::sys::fs::exists(candidate))
      return candidate;
  return "";
}

/// The archive of one of the project's runtime libraries: the runtime's
/// (above), or another one installed or built beside it.
static std::string projectArchive(std::string_view library) {
  std::string runtime = runtimeArchive();
  if (runtime.empty() || library == kRuntimeLibrary)
    return runtime;
  llvm::SmallString<256> path(llvm::sys::path::parent_path(runtime));
  llvm::sys::path::append(path, "lib" + std::string(library) + ".a");
  return llvm::sys::fs::exists(path) ? std::string(path) : std::string();
}

Status writeSharedLibrary(const std::string &path, const std::string &object,
                          const Manifest &manifest, WriteIf when) {
  llvm::SmallString<128> objectPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile(manifest.module, "o", objectPath))
    return Error::message("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeObject(objectPath);
  if (Status s = writeFile(std::string(objectPath), object); !s)
    return s;
  return linkSharedLibrary(path, std::string(objectPath), manifest, when);
}

Status linkSharedLibrary(const std::string &path, const std::string &objectPath,
                         const Manifest &manifest, WriteIf when) {
  std::string driver;
  for (const char *name : {"cc", "gcc", "clang-22", "clang"})
    if (auto found = llvm::sys::findProgramByName(name)) {
      driver = *found;
      break;
    }
  if (driver.empty())
    return Error::message("cannot link a shared library: no C compiler "
                          "driver (cc, gcc or clang) on PATH");

  // The linker writes beside the target; the result replaces the target
  // only once the link succeeded.
  TemporaryOutput output(path);
  std::vector<std::string> args = {driver, "-shared", "-o", output.path(),
                                   objectPath};
  for (const std::string &lib : manifest.link) {
    if (lib == kRuntimeLibrary || lib == kCudaRuntimeLibrary) {
      std::string archive = projectArchive(lib);
      if (archive.empty())
        return Error::message(
            "the code needs the " + lib +
            " library, which was not found; set AOT_RUNTIME_LIBRARY to "
            "libaot_runtime.a" +
            (lib == kRuntimeLibrary
                 ? std::string()
                 : " (lib" + lib + ".a is looked for beside it)"));
      args.push_back(archive);
    } else if (lib == kOpenMpLibrary) {
      // Not on the linker's path on Debian (it lives beside LLVM): by its
      // full name, and found there again at run time.
      std::string omp(openMpLibraryPath());
      if (omp.empty())
        return Error::message(
            "the code runs parallel loops on LLVM's OpenMP runtime (libomp), "
            "which was not found when mlir-aot was built: install "
            "libomp-22-dev and rebuild, or compile with --threads=1");
      args.push_back(omp);
      args.push_back("-Wl,-rpath," +
                     std::string(llvm::sys::path::parent_path(omp)));
    } else {
      args.push_back("-l" + lib);
    }
  }
  // Every library carries the runtime's call guard, through which a caller
  // that must survive a crash of the code (the Python module) calls it.
  // Where the runtime cannot be found and the code needs nothing of it, the
  // library is made without (its callers then call the code directly).
  if (std::string runtime = projectArchive(kRuntimeLibrary); !runtime.empty()) {
    args.insert(args.begin() + 5, "-Wl,--undefined=" + std::string(kCallGuard));
    if (std::find(manifest.link.begin(), manifest.link.end(),
                  kRuntimeLibrary) == manifest.link.end())
      args.push_back(runtime);
  }
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::string message;
  llvm::SmallString<128> logPath;
  (void)llvm::sys::fs::createTemporaryFile("aot-link", "log", logPath);
  llvm::FileRemover removeLog(logPath);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  int rc = llvm::sys::ExecuteAndWait(driver, argRefs, std::nullopt, redirects,
                                     0, 0, &message);
  if (rc != 0) {
    std::string log;
    if (auto buf = llvm::MemoryBuffer::getFile(logPath))
      log = (*buf)->getBuffer().str();
    return Error::at(path, 0, 0,
                     "linking the shared library failed (" + driver +
                         "): " + (message.empty() ? log : message));
  }
  if (std::error_code ec = output.commit(when))
    return Error::at(path, 0, 0, "cannot write: " + ec.message());
  return Status::ok();
}

} // namespace aot
