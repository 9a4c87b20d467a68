//===- EmbeddedManifest.cpp - the manifest a compiled file carries --------===//
//
// Every object the compiler writes holds its manifest in section
// `aot_manifest` (embedManifest). Reading it back needs no symbol lookup and
// no loading, so it works for objects, archives and shared libraries alike,
// and for code compiled for another machine.
//
//===----------------------------------------------------------------------===//
#include "aot/Artifact.h"

#include "Backend/Backend.h"
#include "Backend/Host/LlvmBackend.h"
#include "Backend/LinkTable.h"
#include "Support/ErrorMessage.h"
#include "aot/abi/detail/InputFile.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

namespace aot {

namespace {
Error unreadable(const std::string &path, llvm::Error err) {
  return Error::at(path, 0, 0,
                   "cannot read it as object code: " +
                       llvm::toString(std::move(err)));
}

/// The manifests in one object file's manifest section, `link` derived from
/// its undefined symbols when it is relocatable.
Status readObject(const std::string &path, llvm::MemoryBufferRef buffer,
                  std::vector<Manifest> &out) {
  auto file = llvm::object::ObjectFile::createObjectFile(buffer);
  if (!file)
    return unreadable(path, file.takeError());
  for (const llvm::object::SectionRef &section : (*file)->sections()) {
    auto name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != kManifestSection)
      continue;
    auto contents = section.getContents();
    if (!contents)
      return unreadable(path, contents.takeError());
    llvm::SmallVector<llvm::StringRef> lines;
    contents->split(lines, '\0', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef line : lines) {
      auto manifest = Manifest::fromJson(std::string_view(line));
      if (!manifest)
        return Error::at(path, 0, 0,
                         "its embedded manifest is invalid: " +
                             errorMessage(manifest.error()));
      if ((*file)->isRelocatableObject()) {
        auto target = Target::parse(manifest->target);
        if (!target)
          return Error::at(path, 0, 0,
                           "its embedded manifest names target '" +
                               manifest->target +
                               "': " + errorMessage(target.error()));
        auto link = linkRequirements(
            std::string_view(buffer.getBufferStart(), buffer.getBufferSize()),
            backendFor(*target).linkTable());
        if (!link)
          return Error::at(path, 0, 0, errorMessage(link.error()));
        manifest->link = std::move(*link);
      }
      out.push_back(std::move(*manifest));
    }
  }
  return Status::ok();
}
} // namespace

Expected<std::vector<Manifest>> embeddedManifests(const std::string &path) {
  // A compiled file is a regular file: a device or a FIFO would be read
  // for ever, or wait for a writer.
  try {
    abi::detail::InputFile(path, /*streams=*/false);
  } catch (const abi::Error &e) {
    return Error::at(path, 0, 0, abi::detail::withoutPath(e, path));
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return Error::at(path, 0, 0, "cannot read: " + buffer.getError().message());
  std::vector<Manifest> manifests;
  llvm::MemoryBufferRef ref = (*buffer)->getMemBufferRef();
  if (llvm::identify_magic(ref.getBuffer()) == llvm::file_magic::archive) {
    auto archive = llvm::object::Archive::create(ref);
    if (!archive)
      return unreadable(path, archive.takeError());
    llvm::Error err = llvm::Error::success();
    for (const llvm::object::Archive::Child &child :
         (*archive)->children(err)) {
      auto member = child.getMemoryBufferRef();
      if (!member)
        return unreadable(path, member.takeError());
      if (Status s = readObject(path, *member, manifests); !s)
        return s.error();
    }
    if (err)
      return unreadable(path, std::move(err));
  } else if (Status s = readObject(path, ref, manifests); !s) {
    return s.error();
  }
  if (manifests.empty())
    return Error::at(path, 0, 0,
                     "holds no manifest (section '" + kManifestSection.str() +
                         "'): it was not compiled by mlir-aot");
  return manifests;
}

} // namespace aot
