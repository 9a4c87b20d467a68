//===- EmbeddedWeights.cpp - large constants kept out of LLVM's way -------===//
#include "Backend/Host/EmbeddedWeights.h"

#include "Backend/Host/LlvmBackend.h"
#include "Backend/Host/ReservedWeights.h"
#include "Transforms/Common/ConstantBytes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include "llvm/IR/Constants.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace aot {

void EmbeddedWeights::keep(llvm::StringRef name, llvm::StringRef bytes,
                           llvm::GlobalValue::LinkageTypes linkage,
                           llvm::GlobalValue::VisibilityTypes visibility,
                           llvm::GlobalValue::UnnamedAddr unnamedAddr,
                           bool dsoLocal) {
  weights_[name] = Weight{bytes, linkage, visibility, unnamedAddr, dsoLocal};
}

void EmbeddedWeights::takeFrom(mlir::ModuleOp module) {
  for (auto global : module.getOps<mlir::LLVM::GlobalOp>()) {
    if (!global.getConstant() || !global->hasAttr(kWeightTypeAttr))
      continue;
    std::optional<WeightBytes> bytes =
        weightBytes(global.getValueOrNull(), kMinBytes);
    if (!bytes || bytes->splat)
      continue;
    // Translated with zeros in place of the bytes (no copy, no memory);
    // takeFrom(llvm::Module) then makes the global a declaration.
    weights_[global.getSymName()].bytes =
        llvm::StringRef(bytes->data.data(), bytes->data.size());
    global.removeValueAttr();
    mlir::Region &init = global.getInitializerRegion();
    mlir::OpBuilder b(global.getContext());
    b.setInsertionPointToStart(b.createBlock(&init));
    mlir::Value zero =
        mlir::LLVM::ZeroOp::create(b, global.getLoc(), global.getGlobalType());
    mlir::LLVM::ReturnOp::create(b, global.getLoc(), zero);
  }
}

void EmbeddedWeights::takeFrom(llvm::Module &module) {
  for (llvm::GlobalVariable &global : module.globals()) {
    // The embedded manifest is read by name and section: never a weight.
    if (!global.isConstant() || !global.hasInitializer() ||
        global.getSection() == kManifestSection)
      continue;
    llvm::StringRef bytes;
    auto it = weights_.find(global.getName());
    if (it != weights_.end()) {
      bytes = it->second.bytes;
    } else {
      auto *data =
          llvm::dyn_cast<llvm::ConstantDataSequential>(global.getInitializer());
      if (!data || !data->getElementType()->isIntegerTy(8) ||
          data->getRawDataValues().size() < kMinBytes)
        continue;
      bytes = data->getRawDataValues();
    }
    keep(global.getName(), bytes, global.getLinkage(), global.getVisibility(),
         global.getUnnamedAddr(), global.isDSOLocal());
    global.setInitializer(nullptr);
    global.setLinkage(llvm::GlobalValue::ExternalLinkage);
    global.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
}

std::vector<std::pair<llvm::GlobalVariable *, const EmbeddedWeights::Weight *>>
EmbeddedWeights::declaredIn(llvm::Module &module) const {
  std::vector<std::pair<llvm::GlobalVariable *, const Weight *>> found;
  if (weights_.empty())
    return found;
  for (llvm::GlobalVariable &global : module.globals()) {
    auto it = weights_.find(global.getName());
    if (it != weights_.end() && global.isDeclaration())
      found.emplace_back(&global, &it->second);
  }
  return found;
}

void EmbeddedWeights::withDefinitions(llvm::Module &module,
                                      llvm::function_ref<void()> fn) const {
  auto declared = declaredIn(module);
  for (auto [global, weight] : declared) {
    global->setInitializer(llvm::ConstantDataArray::getRaw(
        weight->bytes, weight->bytes.size(),
        llvm::Type::getInt8Ty(module.getContext())));
    global->setLinkage(weight->linkage);
    global->setVisibility(weight->visibility);
    global->setUnnamedAddr(weight->unnamedAddr);
    global->setDSOLocal(weight->dsoLocal);
  }
  fn();
  for (auto [global, weight] : declared) {
    global->setInitializer(nullptr);
    global->setLinkage(llvm::GlobalValue::ExternalLinkage);
    global->setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
}

std::vector<std::string>
EmbeddedWeights::defineAsZeros(const llvm::Module &whole, llvm::Module &host,
                               bool shared) const {
  std::vector<std::string> defined;
  const bool reserve = reservesWeights(host.getTargetTriple());
  for (const llvm::GlobalVariable &declared : whole.globals()) {
    auto it = weights_.find(declared.getName());
    if (it == weights_.end() || !declared.isDeclaration())
      continue;
    llvm::GlobalVariable *global = host.getNamedGlobal(declared.getName());
    if (!global) {
      // Split off with nothing in the host using it: still defined here,
      // where every partition's reference finds it.
      global = new llvm::GlobalVariable(
          host, declared.getValueType(), /*isConstant=*/true,
          llvm::GlobalValue::ExternalLinkage, nullptr, declared.getName());
      global->setAlignment(declared.getAlign());
    }
    global->setInitializer(
        llvm::ConstantAggregateZero::get(declared.getValueType()));
    global->setUnnamedAddr(it->second.unnamedAddr);
    if (reserve) {
      // Zeros the code cannot fold: the bytes come after code generation.
      global->setConstant(false);
      global->setSection(kReservedWeightsSection);
    }
    if (shared) {
      global->setLinkage(llvm::GlobalValue::ExternalLinkage);
      global->setVisibility(llvm::GlobalValue::HiddenVisibility);
    } else {
      // Local, as the constant was, but with a symbol to find it by.
      global->setVisibility(llvm::GlobalValue::DefaultVisibility);
      global->setLinkage(llvm::GlobalValue::InternalLinkage);
    }
    defined.push_back(declared.getName().str());
  }
  return defined;
}

Expected<std::vector<EmbeddedWeights::Placement>>
EmbeddedWeights::place(llvm::StringRef object,
                       const std::vector<std::string> &defined) const {
  std::vector<Placement> placed;
  if (defined.empty())
    return placed;
  llvm::StringMap<bool> found;
  for (const std::string &name : defined)
    found[name] = false;
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "object"));
  if (!file)
    return Error::message("internal error: cannot read the object to write "
                          "its weights: " +
                          llvm::toString(file.takeError()));
  auto fail = [](llvm::StringRef name, const std::string &why) {
    return Error::message("internal error: weight '" + name.str() + "' " + why);
  };
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    auto name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    auto done = found.find(*name);
    if (done == found.end())
      continue;
    if (done->second)
      return fail(*name, "has two symbols in the object");
    done->second = true;
    auto section = symbol.getSection();
    auto address = symbol.getAddress();
    if (!section || !address || *section == (*file)->section_end()) {
      if (!section)
        llvm::consumeError(section.takeError());
      if (!address)
        llvm::consumeError(address.takeError());
      return fail(*name, "has no place in the object");
    }
    // A view of the object, nothing read: where the zeros lie.
    auto contents = (*section)->getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      return fail(*name, "is in a section without contents");
    }
    auto weight = weights_.find(*name);
    llvm::StringRef bytes = weight->second.bytes;
    uint64_t offset = *address - (*section)->getAddress();
    if (offset > contents->size() || contents->size() - offset < bytes.size())
      return fail(*name, "does not fit its section");
    placed.push_back(
        Placement{uint64_t(contents->data() - object.data()) + offset,
                  weight->first(), bytes});
  }
  for (const auto &entry : found)
    if (!entry.second)
      return fail(entry.first(), "is missing from the object");
  return placed;
}

Expected<std::vector<EmbeddedWeights::Placement>>
EmbeddedWeights::placeReserved(const std::vector<ReservedSection> &sections,
                               uint64_t objectSize,
                               const std::vector<std::string> &defined,
                               ReservedLayout &layout) const {
  // Each section's contents after the last one's, aligned as it asks.
  std::vector<uint64_t> starts;
  uint64_t end = objectSize;
  for (const ReservedSection &section : sections) {
    starts.push_back(llvm::alignTo(end, section.align));
    layout.headers.emplace_back(section.headerOffset, starts.back());
    end = starts.back() + section.size;
  }
  layout.size = end;
  std::vector<Placement> placed;
  for (const std::string &name : defined) {
    auto weight = weights_.find(name);
    llvm::StringRef bytes = weight->second.bytes;
    size_t i = 0;
    while (i < sections.size() && !sections[i].symbols.count(name))
      ++i;
    if (i == sections.size())
      return Error::message("internal error: weight '" + name +
                            "' is missing from the object");
    uint64_t offset = sections[i].symbols.find(name)->second;
    if (offset > sections[i].size || sections[i].size - offset < bytes.size())
      return Error::message("internal error: weight '" + name +
                            "' does not fit its section");
    placed.push_back(Placement{starts[i] + offset, weight->first(), bytes});
  }
  return placed;
}

Expected<std::vector<EmbeddedWeights::Placement>>
EmbeddedWeights::locate(llvm::StringRef object,
                        const std::vector<std::string> &defined,
                        std::optional<ReservedLayout> &layout) const {
  auto sections = findReservedSections(object);
  if (!sections)
    return sections.error();
  if (sections->empty())
    return place(object, defined);
  layout.emplace();
  return placeReserved(*sections, object.size(), defined, *layout);
}

Status EmbeddedWeights::patch(std::string &object,
                              const std::vector<std::string> &defined) const {
  if (defined.empty())
    return Status::ok();
  std::optional<ReservedLayout> layout;
  auto placed = locate(object, defined, layout);
  if (!placed)
    return placed.error();
  if (layout) {
    object.resize(layout->size, '\0');
    for (auto [header, at] : layout->headers)
      fillReservedHeader(object.data() + header, at);
    for (const Placement &p : *placed)
      std::memcpy(object.data() + p.offset, p.bytes.data(), p.bytes.size());
    return Status::ok();
  }
  for (const Placement &p : *placed) {
    char *at = object.data() + p.offset;
    if (std::any_of(at, at + p.bytes.size(), [](char c) { return c != 0; }))
      return Error::message("internal error: weight '" + p.name.str() +
                            "' is not where its zeros were emitted");
    std::memcpy(at, p.bytes.data(), p.bytes.size());
  }
  return Status::ok();
}

Status
EmbeddedWeights::patchFile(const std::string &path, const std::string &shown,
                           const std::vector<std::string> &defined) const {
  if (defined.empty())
    return Status::ok();
  std::vector<Placement> placed;
  std::optional<ReservedLayout> section;
  // The reserved sections' headers, as they are in the file.
  std::vector<std::string> headers;
  {
    // Mapped, not read: only the headers and the symbol table are touched.
    auto object = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!object)
      return Error::at(shown, 0, 0,
                       "cannot read the object to write its weights: " +
                           object.getError().message());
    llvm::StringRef bytes = (*object)->getBuffer();
    auto found = locate(bytes, defined, section);
    if (!found)
      return found.error();
    placed = std::move(*found);
    if (section)
      for (auto [header, at] : section->headers)
        headers.emplace_back(bytes.data() + header, 64);
  }
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return Error::at(shown, 0, 0,
                     "cannot write the weights into the object: " +
                         std::string(std::strerror(errno)));
  std::string failure;
  if (section) {
    // The contents go at the end, the file made long enough first (a
    // sparse stretch of zeros, for the gaps), then the headers that point
    // at them; the weights are written, not checked against zeros.
    if (::ftruncate(fd, off_t(section->size)) != 0)
      failure = "cannot write the weights into the object: " +
                std::string(std::strerror(errno));
    for (size_t i = 0; i < headers.size() && failure.empty(); ++i) {
      auto [header, at] = section->headers[i];
      fillReservedHeader(headers[i].data(), at);
      if (::pwrite(fd, headers[i].data(), headers[i].size(), off_t(header)) !=
          ssize_t(headers[i].size()))
        failure = "cannot write the weights into the object: " +
                  std::string(std::strerror(errno));
    }
  }
  std::vector<char> check(1 << 20);
  for (const Placement &p : placed) {
    for (uint64_t done = 0; done < p.bytes.size() && failure.empty();) {
      size_t chunk = std::min<uint64_t>(check.size(), p.bytes.size() - done);
      ssize_t got = section ? ssize_t(chunk)
                            : ::pread(fd, check.data(), chunk, p.offset + done);
      if (got != ssize_t(chunk) ||
          (!section && std::any_of(check.begin(), check.begin() + chunk,
                                   [](char c) { return c != 0; }))) {
        failure = "internal error: weight '" + p.name.str() +
                  "' is not where its zeros were emitted";
        break;
      }
      ssize_t put = ::pwrite(fd, p.bytes.data() + done, chunk, p.offset + done);
      if (put != ssize_t(chunk)) {
        failure = "cannot write the weights into the object: " +
                  std::string(put < 0 ? std::strerror(errno) : "short write");
        break;
      }
      done += chunk;
    }
    if (!failure.empty())
      break;
  }
  if (::close(fd) != 0 && failure.empty())
    failure = "cannot write the weights into the object: " +
              std::string(std::strerror(errno));
  if (!failure.empty())
    return Error::at(shown, 0, 0, failure);
  return Status::ok();
}

} // namespace aot
