//===- Frontend.h - from bytes to a verified module and its signatures ----===//
#pragma once

#include "aot/Compiler.h"
#include "aot/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace aot {

/// The source's bytes: the file's contents, or a copy of the in-memory
/// buffer, aligned as bytecode resources need. Null with `ioError` set when
/// the file cannot be read.
std::unique_ptr<llvm::MemoryBuffer> openSource(const Source &source,
                                               std::string &ioError);

/// Parses text or bytecode (told apart by content) into a module and
/// verifies it. Errors are emitted to the context's diagnostic handlers.
/// Bytecode is read in a child process first (BytecodeGuard.h); when the
/// reader crashes, hangs or runs out of memory there, `ioError` says so.
mlir::OwningOpRef<mlir::ModuleOp> parseModule(const Source &source,
                                              mlir::MLIRContext &context,
                                              std::string &ioError);

/// Emits an error, located at the offending op, for every op, type or
/// function signature outside the input contract; fails if there was any.
mlir::LogicalResult checkInputContract(mlir::ModuleOp module);

/// Emits an error, located at the function, for every function whose name
/// the compiled code cannot carry: an empty name, a name of the prefixes
/// the compiler keeps for its own symbols (`_mlir_`, `_aot_`, `__`), or one
/// for which `isRuntimeName` is true, a function the compiled code may call
/// by name (libm's `powf`): defined in the module, it would take that
/// function's place. Fails if there was any.
mlir::LogicalResult
checkFunctionNames(mlir::ModuleOp module,
                   llvm::function_ref<bool(llvm::StringRef)> isRuntimeName);

/// The signatures of the module's public functions, from their tensor or
/// memref types. Emits an error and fails for a type the ABI cannot carry.
mlir::FailureOr<std::vector<FunctionSig>>
extractSignatures(mlir::ModuleOp module);

/// `aot.unsigned` (aot/Manifest.h), as MLIR's attribute lookups take it.
inline constexpr llvm::StringLiteral kUnsignedAttr = "aot.unsigned";
static_assert(kUnsignedAttrName == std::string_view(kUnsignedAttr));

/// The element type's ABI dtype, if it has one.
std::optional<abi::DType> dtypeOf(mlir::Type elementType);

} // namespace aot
