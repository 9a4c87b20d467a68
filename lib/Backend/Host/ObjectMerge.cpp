//===- ObjectMerge.cpp - one relocatable object from several --------------===//
#include "Backend/Host/ObjectMerge.h"

#include "lld/Common/Driver.h"

#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/Binary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <mutex>

LLD_HAS_DRIVER(elf)

namespace aot {

namespace {

/// LLD keeps its state in globals: one link at a time per process.
std::mutex &linkerMutex() {
  static std::mutex mutex;
  return mutex;
}

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

/// `input` (an object file) with its hidden symbols bound locally, written
/// to `output`: objcopy makes the whole object in a buffer of its own, which
/// the file takes, so only one copy is in memory at a time.
Status localizeHidden(const std::string &input, const std::string &output) {
  auto merged = llvm::MemoryBuffer::getFile(input, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!merged)
    return Error::at(input, 0, 0,
                     "cannot read the merged object: " +
                         merged.getError().message());
  auto binary = llvm::object::createBinary((*merged)->getMemBufferRef());
  if (!binary)
    return Error::message("cannot read the merged object: " +
                          llvm::toString(binary.takeError()));
  llvm::objcopy::ConfigManager config;
  config.ELF.LocalizeHidden = true;
  std::error_code ec;
  llvm::raw_fd_ostream os(output, ec);
  if (ec)
    return Error::at(output, 0, 0, "cannot write: " + ec.message());
  if (llvm::Error err =
          llvm::objcopy::executeObjcopyOnBinary(config, **binary, os))
    return Error::message("cannot localize the merged object's symbols: " +
                          llvm::toString(std::move(err)));
  os.close();
  if (os.has_error()) {
    std::string why = os.error().message();
    os.clear_error();
    return Error::at(output, 0, 0, "cannot write: " + why);
  }
  return Status::ok();
}

} // namespace

PartitionObjects::~PartitionObjects() {
  if (!dir_.empty())
    (void)llvm::sys::fs::remove_directories(dir_);
}

Status PartitionObjects::create() {
  llvm::SmallString<256> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("aot-partitions", dir))
    return Error::message("cannot create a directory for the partitions' "
                          "objects: " +
                          ec.message());
  dir_ = std::string(dir);
  return Status::ok();
}

std::string PartitionObjects::file(const std::string &name) const {
  llvm::SmallString<256> p(dir_);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

std::string PartitionObjects::path(unsigned k) const {
  return file(std::to_string(k) + ".o");
}

Expected<std::string> PartitionObjects::read(const std::string &path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    return Error::at(path, 0, 0, "cannot read an object made here");
  std::string bytes(static_cast<std::size_t>(in.tellg()), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), std::streamsize(bytes.size())))
    return Error::at(path, 0, 0, "cannot read an object made here");
  return bytes;
}

Status PartitionObjects::merge(unsigned count, const std::string &triple,
                               const std::string &output) const {
  std::vector<std::string> inputs;
  for (unsigned k = 0; k < count; ++k) {
    inputs.push_back(path(k));
    // LLD would take anything else for a linker script.
    char magic[4] = {};
    std::ifstream in(inputs.back(), std::ios::binary);
    if (!in.read(magic, 4) || llvm::StringRef(magic, 4) != "\x7f"
                                                           "ELF")
      return Error::message("internal error: partition " + std::to_string(k) +
                            " of the code for " + triple +
                            " is not an ELF object");
  }
  std::string linked = file("merged.o");
  if (Status s = linkRelocatable(inputs, linked); !s)
    return Error::message(s.error().str() + " (target " + triple + ")");
  Status localized = localizeHidden(linked, output);
  (void)llvm::sys::fs::remove(linked);
  return localized;
}

} // namespace aot
