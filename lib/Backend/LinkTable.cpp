//===- LinkTable.cpp - the symbols compiled code may call -----------------===//
#include "Backend/LinkTable.h"

#include "aot/abi/CudaStatus.h"
#include "aot/abi/Runtime.h"
#include "aot/abi/Weights.h"
#include "runtime/CudaEntryPoints.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <set>

namespace aot {

std::span<const LinkSymbol> cudaRuntimeSymbols() {
#define AOT_CUDA_SYMBOL(name)                                                  \
  LinkSymbol {                                                                 \
#name, kCudaRuntimeLibrary, false, reinterpret_cast < void *>(&name),      \
        kLibStdCxx                                                             \
  }
  static const LinkSymbol table[] = {
      AOT_CUDA_SYMBOL(aotCudaBegin),
      AOT_CUDA_SYMBOL(aotCudaBeginOn),
      AOT_CUDA_SYMBOL(aotCudaConstant),
      AOT_CUDA_SYMBOL(mgpuModuleLoad),
      AOT_CUDA_SYMBOL(mgpuModuleLoadJIT),
      AOT_CUDA_SYMBOL(mgpuModuleUnload),
      AOT_CUDA_SYMBOL(mgpuModuleGetFunction),
      AOT_CUDA_SYMBOL(mgpuLaunchKernel),
      AOT_CUDA_SYMBOL(mgpuStreamCreate),
      AOT_CUDA_SYMBOL(mgpuStreamDestroy),
      AOT_CUDA_SYMBOL(mgpuStreamSynchronize),
      AOT_CUDA_SYMBOL(mgpuMemAlloc),
      AOT_CUDA_SYMBOL(mgpuMemFree),
      AOT_CUDA_SYMBOL(mgpuMemcpy),
      AOT_CUDA_SYMBOL(mgpuMemset32),
      AOT_CUDA_SYMBOL(mgpuSetDefaultDevice),
      AOT_CUDA_SYMBOL(aotCudaTraceLaunch),
      AOT_CUDA_SYMBOL(aotCudaTraceBuffer),
      AOT_CUDA_SYMBOL(aotCudaTraceEnd),
  };
#undef AOT_CUDA_SYMBOL
  return table;
}

std::span<const LinkSymbol> libcSymbols() {
  static const LinkSymbol table[] = {
      {"malloc", kLibc},
      {"free", kLibc},
      {"calloc", kLibc},
      {"realloc", kLibc},
      {"aligned_alloc", kLibc},
      {"posix_memalign", kLibc},
      {"memcpy", kLibc},
      {"memset", kLibc},
      {"memmove", kLibc},
      {"abort", kLibc},
      // cf.assert prints its message and aborts.
      {"puts", kLibc},
      // libgcc / compiler-rt helpers (half-precision conversions, 128-bit
      // arithmetic) that the C driver always links.
      {"__", kLibc, /*prefix=*/true},
      {"_GLOBAL_OFFSET_TABLE_", kLibc},
  };
  return table;
}

std::span<const LinkSymbol> libmSymbols() {
  // What LLVM's lowering of math intrinsics and MLIR's math-to-libm emit,
  // in double, float and long double.
  static constexpr std::string_view names[] = {
      "acos",      "acosh",  "asin",  "asinh",     "atan",      "atan2",
      "atanh",     "cbrt",   "ceil",  "copysign",  "cos",       "cosh",
      "erf",       "erfc",   "exp",   "exp10",     "exp2",      "expm1",
      "fabs",      "fdim",   "floor", "fma",       "fmax",      "fmin",
      "fmod",      "frexp",  "hypot", "ldexp",     "lgamma",    "llrint",
      "llround",   "log",    "log10", "log1p",     "log2",      "logb",
      "lrint",     "lround", "modf",  "nearbyint", "nextafter", "pow",
      "remainder", "rint",   "round", "roundeven", "scalbn",    "sin",
      "sincos",    "sinh",   "sqrt",  "tan",       "tanh",      "tgamma",
      "trunc"};
  static const std::vector<LinkSymbol> table = [] {
    // Storage for the suffixed names, which the string_views point into.
    static std::set<std::string, std::less<>> spelled;
    std::vector<LinkSymbol> rows;
    for (std::string_view base : names)
      for (const char *suffix : {"", "f", "l"})
        rows.push_back(
            {*spelled.insert(std::string(base) + suffix).first, kLibm});
    return rows;
  }();
  return table;
}

std::span<const LinkSymbol> openMpSymbols() {
  // OpenMPIRBuilder's entry points (__kmpc_fork_call, the static schedule)
  // and the omp_ API.
  static const LinkSymbol table[] = {{"__kmpc_", kOpenMpLibrary, true},
                                     {"omp_", kOpenMpLibrary, true}};
  return table;
}

std::string_view openMpLibraryPath() {
#ifdef AOT_OPENMP_LIBRARY
  return AOT_OPENMP_LIBRARY;
#else
  return "";
#endif
}

std::span<const LinkSymbol> runtimeSymbols() {
  static const LinkSymbol table[] = {
      {"memrefCopy", kRuntimeLibrary, false,
       reinterpret_cast<void *>(&abi::memrefCopy)},
      {"_mlir_memref_to_llvm_alloc", kRuntimeLibrary, false,
       reinterpret_cast<void *>(&abi::_mlir_memref_to_llvm_alloc)},
      {"_mlir_memref_to_llvm_free", kRuntimeLibrary, false,
       reinterpret_cast<void *>(&abi::_mlir_memref_to_llvm_free)},
      {"aotWeightsLoad", kRuntimeLibrary, false,
       reinterpret_cast<void *>(&abi::aotWeightsLoad), kLibStdCxx},
      {"aotWeightsEnsure", kRuntimeLibrary, false,
       reinterpret_cast<void *>(&abi::aotWeightsEnsure), kLibStdCxx},
  };
  return table;
}

std::vector<LinkSymbol>
joinLinkTables(std::initializer_list<std::span<const LinkSymbol>> parts) {
  std::vector<LinkSymbol> rows;
  for (std::span<const LinkSymbol> part : parts)
    rows.insert(rows.end(), part.begin(), part.end());
  return rows;
}

std::span<const LinkSymbol> hostCodeSymbols() {
  static const std::vector<LinkSymbol> table = joinLinkTables(
      {openMpSymbols(), libcSymbols(), runtimeSymbols(), libmSymbols()});
  return table;
}

const LinkSymbol *findLinkSymbol(std::span<const LinkSymbol> table,
                                 std::string_view symbol) {
  for (const LinkSymbol &entry : table)
    if (entry.prefix ? symbol.starts_with(entry.name) : symbol == entry.name)
      return &entry;
  return nullptr;
}

Expected<std::vector<std::string>>
linkRequirements(std::string_view object, std::span<const LinkSymbol> table) {
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "object"));
  if (!file)
    return Error::message("cannot read the object code: " +
                          llvm::toString(file.takeError()));
  std::vector<std::string_view> needed;
  std::vector<std::string> unknown;
  for (const llvm::object::SymbolRef &sym : (*file)->symbols()) {
    auto flags = sym.getFlags();
    auto name = sym.getName();
    if (!flags || !name) {
      if (!flags)
        llvm::consumeError(flags.takeError());
      if (!name)
        llvm::consumeError(name.takeError());
      continue;
    }
    if (!(*flags & llvm::object::SymbolRef::SF_Undefined) || name->empty())
      continue;
    const LinkSymbol *entry = findLinkSymbol(table, *name);
    if (!entry)
      unknown.push_back(name->str());
    else
      for (std::string_view lib : {entry->library, entry->alsoNeeds})
        if (!lib.empty() &&
            std::find(needed.begin(), needed.end(), lib) == needed.end())
          needed.push_back(lib);
  }
  if (!unknown.empty()) {
    std::string list;
    for (const std::string &s : unknown)
      list += (list.empty() ? "'" : ", '") + s + "'";
    return Error::message("internal error: the object code calls " + list +
                          ", which no library of this target's link table "
                          "defines");
  }
  // The runtime first: it may itself call libstdc++, libm and libc.
  static constexpr std::string_view order[] = {
      kCudaRuntimeLibrary, kRuntimeLibrary, kLibStdCxx, kLibm};
  std::vector<std::string> out;
  for (std::string_view lib : order)
    if (std::find(needed.begin(), needed.end(), lib) != needed.end())
      out.emplace_back(lib);
  for (std::string_view lib : needed)
    if (std::find(std::begin(order), std::end(order), lib) == std::end(order))
      out.emplace_back(lib);
  return out;
}

} // namespace aot
