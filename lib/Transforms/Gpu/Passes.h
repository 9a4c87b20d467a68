//===- Passes.h - the CUDA back end's passes ------------------------------===//
#pragma once

#include "Transforms/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace aot {

#define GEN_PASS_DECL
#include "Transforms/Gpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Transforms/Gpu/Passes.h.inc"

} // namespace aot
