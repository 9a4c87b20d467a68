//===- GpuMemory.h - where a buffer lives, for the GPU passes -------------===//
#pragma once

#include "mlir/IR/Value.h"

#include "llvm/ADT/StringRef.h"

namespace aot {

/// On a function: its memref arguments are device memory.
inline constexpr llvm::StringLiteral kDeviceMemoryAttr = "aot.device_memory";
/// On a memref.alloc or alloca: it holds tensor data, so device memory.
inline constexpr llvm::StringLiteral kDeviceBufferAttr = "aot.device";
/// On an llvm.mlir.global: constant data only the host reads (a text the
/// runtime is handed), so aot-gpu-device-constants makes no device copy.
inline constexpr llvm::StringLiteral kHostOnlyAttr = "aot.host_only";

/// The buffer `value` is a view of: through casts, subviews, reshapes and
/// strided-metadata extraction, to the op or block argument that made it.
mlir::Value rootBuffer(mlir::Value value);

/// Whether `value` is host memory: a view of an unmarked allocation, or an
/// argument of a function that is not marked as taking device memory.
bool isHostMemory(mlir::Value value);

/// Whether `value` is a view of a constant global.
bool isConstantBuffer(mlir::Value value);

} // namespace aot
