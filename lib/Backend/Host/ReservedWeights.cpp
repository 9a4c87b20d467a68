//===- ReservedWeights.cpp - room for the weights, filled after the link --===//
#include "Backend/Host/ReservedWeights.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <cstddef>

namespace aot {

bool reservesWeights(const llvm::Triple &triple) {
  return triple.isOSBinFormatELF() && triple.isArch64Bit() &&
         triple.isLittleEndian();
}

Expected<std::vector<ReservedSection>>
findReservedSections(llvm::StringRef object) {
  using ELFT = llvm::object::ELF64LE;
  std::vector<ReservedSection> found;
  if (!object.starts_with("\x7f"
                          "ELF") ||
      object.size() <= llvm::ELF::EI_DATA ||
      object[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64 ||
      object[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB)
    return found;
  auto fail = [](llvm::Error e) {
    return Error::message("internal error: cannot read the object to write "
                          "its weights: " +
                          llvm::toString(std::move(e)));
  };
  auto file = llvm::object::ELFFile<ELFT>::create(object);
  if (!file)
    return fail(file.takeError());
  auto sections = file->sections();
  if (!sections)
    return fail(sections.takeError());
  // By section index, where each reserved section is in `found`.
  llvm::DenseMap<uint32_t, size_t> byIndex;
  uint32_t index = 0;
  const ELFT::Shdr *symtab = nullptr;
  for (const ELFT::Shdr &section : *sections) {
    if (section.sh_type == llvm::ELF::SHT_SYMTAB)
      symtab = &section;
    auto name = file->getSectionName(section);
    if (!name)
      return fail(name.takeError());
    if (*name == kReservedWeightsSection &&
        section.sh_type == llvm::ELF::SHT_NOBITS) {
      ReservedSection reserved;
      reserved.headerOffset =
          uint64_t(reinterpret_cast<const char *>(&section) - object.data());
      reserved.size = section.sh_size;
      reserved.align = std::max<uint64_t>(1, section.sh_addralign);
      byIndex[index] = found.size();
      found.push_back(std::move(reserved));
    }
    ++index;
  }
  if (found.empty() || !symtab)
    return found;
  auto symbols = file->symbols(symtab);
  if (!symbols)
    return fail(symbols.takeError());
  auto strings = file->getStringTableForSymtab(*symtab);
  if (!strings)
    return fail(strings.takeError());
  for (const ELFT::Sym &symbol : *symbols) {
    auto at = byIndex.find(symbol.st_shndx);
    if (at == byIndex.end())
      continue;
    auto name = symbol.getName(*strings);
    if (!name)
      return fail(name.takeError());
    found[at->second].symbols[*name] = symbol.st_value;
  }
  return found;
}

void fillReservedHeader(char *header, uint64_t offset) {
  using llvm::ELF::Elf64_Shdr;
  using namespace llvm::support::endian;
  // ".bss" off the front of the name: the filled section's name is the
  // tail of the reserved one's, in the same string table.
  char *name = header + offsetof(Elf64_Shdr, sh_name);
  write32le(name, read32le(name) + 4);
  write32le(header + offsetof(Elf64_Shdr, sh_type), llvm::ELF::SHT_PROGBITS);
  // Read-only; other flags (SHF_GNU_RETAIN on a weight the code must keep)
  // stay.
  char *flags = header + offsetof(Elf64_Shdr, sh_flags);
  write64le(flags, (read64le(flags) & ~uint64_t(llvm::ELF::SHF_WRITE)) |
                       llvm::ELF::SHF_ALLOC);
  write64le(header + offsetof(Elf64_Shdr, sh_offset), offset);
}

} // namespace aot
