//===- LinkTable.h - which library defines each symbol code may call ------===//
//
// Each back end declares the symbols its object code may leave undefined and
// the library that defines each one. The same table decides the manifest's
// `link` list (and so what add_aot_target and shared libraries link) and
// which symbols the in-process loader defines from the runtime linked into
// the compiler. A symbol in no table is an error, never a guess.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Diagnostics.h"

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace aot {

/// Library names as the manifest spells them.
inline constexpr std::string_view kLibc = "";
inline constexpr std::string_view kRuntimeLibrary = "aot_runtime";
inline constexpr std::string_view kLibm = "m";
inline constexpr std::string_view kLibStdCxx = "stdc++";
inline constexpr std::string_view kCudaRuntimeLibrary = "aot_cuda_runtime";
/// The runtime's function that calls an entry point and returns a crash as
/// a status (aot/abi/CallGuard.h); every shared library exports it.
inline constexpr std::string_view kCallGuard = "aotGuardedInvoke";
inline constexpr std::string_view kOpenMpLibrary = "omp";

/// One symbol (or every symbol starting with `name` when `prefix`) and the
/// library that defines it; kLibc for what every C link has.
struct LinkSymbol {
  std::string_view name;
  std::string_view library;
  bool prefix = false;
  /// For the project's runtime: the function in this process, which an
  /// in-process load binds the symbol to.
  void *address = nullptr;
  /// A library the defining one needs in turn ("" for none): the runtime's
  /// weights loader is C++ and needs libstdc++.
  std::string_view alsoNeeds = {};
};

/// What every C link provides: libc's allocation and memory functions, the
/// compiler's support library (`__` helpers) and linker-defined symbols.
std::span<const LinkSymbol> libcSymbols();
/// libm's functions, in every precision.
std::span<const LinkSymbol> libmSymbols();
/// LLVM's OpenMP runtime (libomp): what parallel loops call.
std::span<const LinkSymbol> openMpSymbols();
/// Where libomp was found when mlir-aot was built ("" if it was not).
std::string_view openMpLibraryPath();
/// The project's runtime (MlirAot::runtime): memrefCopy and the loader of
/// external weights.
std::span<const LinkSymbol> runtimeSymbols();

/// The GPU runtime (MlirAot::cuda_runtime): what host code compiled for a
/// cuda target calls to load its kernels, launch them and move memory.
std::span<const LinkSymbol> cudaRuntimeSymbols();

/// What host code may call, whichever back end made it: libomp first
/// (libc's "__" prefix would take its __kmpc_ names), libc, the project's
/// runtime, libm.
std::span<const LinkSymbol> hostCodeSymbols();

/// One table made of `parts`, in order.
std::vector<LinkSymbol>
joinLinkTables(std::initializer_list<std::span<const LinkSymbol>> parts);

/// The entry of `table` for `symbol`, or nullptr.
const LinkSymbol *findLinkSymbol(std::span<const LinkSymbol> table,
                                 std::string_view symbol);

/// The libraries besides libc that the undefined symbols of `object` need,
/// in the order "aot_runtime", then the rest as the table lists them. An
/// undefined symbol the table does not know is an error naming it.
Expected<std::vector<std::string>>
linkRequirements(std::string_view object, std::span<const LinkSymbol> table);

} // namespace aot
