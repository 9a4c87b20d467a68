//===- ReservedWeights.h - room for the weights, filled after the link ----===//
//
// On ELF64 little-endian targets the embedded weights are generated into a
// section without contents (SHT_NOBITS, as .bss is): the partitions'
// objects, LLD's merge of them and objcopy's localisation then handle a few
// megabytes of code, not hundreds of megabytes of zeros, which each of them
// would map or copy. Once the object is whole, the section is given its
// contents: the weights' bytes go at the end of the file and its header
// becomes a read-only PROGBITS section's, named by the tail of its name
// (.rodata.aot.weights), which linkers place with the other read-only
// data. Code generation may make several such sections (a weight the code
// must retain gets one of its own); each is filled in turn.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Diagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <vector>

namespace aot {

/// The section the weights are generated into where reserve() holds.
inline constexpr llvm::StringLiteral kReservedWeightsSection =
    ".bss.rodata.aot.weights";

/// Whether objects for `triple` reserve their weights' room (ELF64 LE).
bool reservesWeights(const llvm::Triple &triple);

/// The reserved section of an object, as found in it.
struct ReservedSection {
  /// Where its section header lies in the object.
  uint64_t headerOffset = 0;
  uint64_t size = 0;
  uint64_t align = 1;
  /// The offset in the section of each symbol defined in it.
  llvm::StringMap<uint64_t> symbols;
};

/// The reserved sections of `object`: none where it is not an ELF64 LE
/// object or reserves no weights; several where code generation split
/// them (a weight the code must retain gets a section of its own, flagged
/// so); an error for an object that does not parse.
Expected<std::vector<ReservedSection>>
findReservedSections(llvm::StringRef object);

/// Rewrites `header`, the 64 bytes of a reserved section's header, into
/// those of the section filled with its contents at `offset` in the file
/// (PROGBITS, read-only, named by the tail of its name).
void fillReservedHeader(char *header, uint64_t offset);

} // namespace aot
