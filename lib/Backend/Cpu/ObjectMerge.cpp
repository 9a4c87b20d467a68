//===- ObjectMerge.cpp - one relocatable object from several --------------===//
#include "Backend/Cpu/ObjectMerge.h"

#include "Support/FileWriter.h"

#include "lld/Common/Driver.h"

#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/Binary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

namespace aot {

namespace {

/// LLD keeps its state in globals: one link at a time per process.
std::mutex &linkerMutex() {
  static std::mutex mutex;
  return mutex;
}

/// A directory removed with what it holds when this goes out of scope.
class TemporaryDirectory {
public:
  std::error_code create() {
    return llvm::sys::fs::createUniqueDirectory("aot-partitions", path_);
  }
  std::string file(const std::string &name) const {
    llvm::SmallString<256> p(path_);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  ~TemporaryDirectory() {
    if (!path_.empty())
      (void)llvm::sys::fs::remove_directories(path_);
  }

private:
  llvm::SmallString<256> path_;
};

/// `ld.lld -r -o OUTPUT INPUTS...`; LLD's messages in the error.
Status linkRelocatable(const std::vector<std::string> &inputs,
                       const std::string &output) {
  std::vector<const char *> args = {"ld.lld", "-r", "-o", output.c_str()};
  for (const std::string &input : inputs)
    args.push_back(input.c_str());
  std::string messages;
  llvm::raw_string_ostream out(messages), err(messages);
  std::lock_guard<std::mutex> lock(linkerMutex());
  // After a crash inside LLD its state is unknown; no later link trusts it.
  static bool broken = false;
  if (broken)
    return Error::message("cannot merge the partitions' objects: the "
                          "in-process linker failed earlier in this process");
  lld::Result result =
      lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
  broken = !result.canRunAgain;
  if (result.retCode != 0)
    return Error::message("cannot merge the partitions' objects: " + messages);
  return Status::ok();
}

/// The object with its hidden symbols bound locally.
Expected<std::string> localizeHidden(std::string object) {
  auto binary = llvm::object::createBinary(
      llvm::MemoryBufferRef(object, "merged.o"));
  if (!binary)
    return Error::message("cannot read the merged object: " +
                          llvm::toString(binary.takeError()));
  llvm::objcopy::ConfigManager config;
  config.ELF.LocalizeHidden = true;
  std::string localized;
  localized.reserve(object.size());
  llvm::raw_string_ostream os(localized);
  if (llvm::Error err =
          llvm::objcopy::executeObjcopyOnBinary(config, **binary, os))
    return Error::message("cannot localize the merged object's symbols: " +
                          llvm::toString(std::move(err)));
  return localized;
}

} // namespace

Expected<std::string> mergeObjects(const std::vector<std::string> &objects,
                                   const std::string &triple) {
  TemporaryDirectory dir;
  if (std::error_code ec = dir.create())
    return Error::message("cannot create a directory for the partitions' "
                          "objects: " +
                          ec.message());
  std::vector<std::string> inputs;
  for (size_t k = 0; k < objects.size(); ++k) {
    // LLD would take anything else for a linker script.
    if (!llvm::StringRef(objects[k]).starts_with("\x7f" "ELF"))
      return Error::message("internal error: partition " + std::to_string(k) +
                            " of the code for " + triple +
                            " is not an ELF object");
    inputs.push_back(dir.file(std::to_string(k) + ".o"));
    if (std::error_code ec = writeFileAtomically(inputs.back(), objects[k]))
      return Error::at(inputs.back(), 0, 0,
                       "cannot write a partition's object: " + ec.message());
  }
  std::string output = dir.file("merged.o");
  if (Status s = linkRelocatable(inputs, output); !s)
    return Error::message(s.error().str() + " (target " + triple + ")");
  auto merged = llvm::MemoryBuffer::getFile(output);
  if (!merged)
    return Error::at(output, 0, 0,
                     "cannot read the merged object: " +
                         merged.getError().message());
  return localizeHidden(std::string((*merged)->getBuffer()));
}

} // namespace aot
