//===- InputContract.cpp - what the input stage accepts -------------------===//
//
// Rejecting everything outside the contract before any lowering means a user
// gets "op X at file:line is not supported" instead of a failure deep inside
// bufferization or the LLVM lowering, where the location no longer helps.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Frontend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace aot {

static constexpr const char *kDialects =
    "func, arith, math, tensor, linalg, tosa, scf, cf, bufferization";
static constexpr const char *kElementTypes =
    "i1, i4, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2, "
    "f8E4M3FNUZ, f8E5M2FNUZ";

std::optional<abi::DType> dtypeOf(mlir::Type t) {
  if (auto i = llvm::dyn_cast<mlir::IntegerType>(t)) {
    if (!i.isSignless())
      return std::nullopt;
    switch (i.getWidth()) {
    case 1: return abi::DType::I1;
    case 4: return abi::DType::I4;
    case 8: return abi::DType::I8;
    case 16: return abi::DType::I16;
    case 32: return abi::DType::I32;
    case 64: return abi::DType::I64;
    default: return std::nullopt;
    }
  }
  if (t.isF16()) return abi::DType::F16;
  if (t.isBF16()) return abi::DType::BF16;
  if (t.isF32()) return abi::DType::F32;
  if (t.isF64()) return abi::DType::F64;
  if (llvm::isa<mlir::Float8E4M3FNType>(t)) return abi::DType::F8E4M3FN;
  if (llvm::isa<mlir::Float8E5M2Type>(t)) return abi::DType::F8E5M2;
  if (llvm::isa<mlir::Float8E4M3FNUZType>(t)) return abi::DType::F8E4M3FNUZ;
  if (llvm::isa<mlir::Float8E5M2FNUZType>(t)) return abi::DType::F8E5M2FNUZ;
  return std::nullopt;
}

/// Types that may appear anywhere inside a function body.
static bool isAcceptedType(mlir::Type t) {
  if (llvm::isa<mlir::IndexType>(t) || dtypeOf(t))
    return true;
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(t))
    return !tensor.getEncoding() &&
           (dtypeOf(tensor.getElementType()) ||
            llvm::isa<mlir::IndexType>(tensor.getElementType()));
  // TOSA carries shapes as values of its own shape type.
  return llvm::isa<mlir::tosa::shapeType>(t);
}

static std::string typeString(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

static mlir::LogicalResult checkBoundaryType(mlir::func::FuncOp fn,
                                             mlir::Type t, bool isResult,
                                             unsigned index) {
  const char *what = isResult ? "result" : "argument";
  if (isResult ? fn.getResultAttr(index, kUnsignedAttr)
               : fn.getArgAttr(index, kUnsignedAttr)) {
    auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(t);
    mlir::Type elem = tensor ? tensor.getElementType() : mlir::Type();
    if (!tensor || !elem.isSignlessInteger() ||
        !llvm::is_contained({8u, 16u, 32u, 64u}, elem.getIntOrFloatBitWidth()))
      return fn.emitError()
             << "public function '" << fn.getSymName() << "' " << what << " "
             << index << " of type " << t << " has '" << kUnsignedAttr
             << "', which applies to tensors of i8, i16, i32 or i64 only";
  }
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(t)) {
    if (dtypeOf(tensor.getElementType()) && !tensor.getEncoding())
      return mlir::success();
  } else if (auto dtype = dtypeOf(t)) {
    // Half-precision scalars travel in vector registers under the C calling
    // convention, which the typed C++ wrappers cannot express portably; an
    // 8-bit float has no C type at all.
    if (*dtype != abi::DType::F16 && *dtype != abi::DType::BF16 &&
        !abi::isFloat8(*dtype) && *dtype != abi::DType::I4)
      return mlir::success();
    return fn.emitError() << "public function '" << fn.getSymName() << "' "
                          << what << " " << index << " is a '" << typeString(t)
                          << "' scalar; pass it as tensor<" << typeString(t)
                          << "> instead";
  }
  return fn.emitError() << "public function '" << fn.getSymName() << "' "
                        << what << " " << index << " has type " << t
                        << ", which is outside the input contract (a ranked "
                           "tensor or a scalar of "
                        << kElementTypes << ")";
}

/// Ops of the accepted dialects that the compiler cannot lower, and why:
/// refused here, at their location, rather than by a later stage.
static std::optional<llvm::StringRef> unlowerable(llvm::StringRef op) {
  static const llvm::StringMap<llvm::StringRef> reasons = {
      {"tensor.gather", "it has no bufferization"},
      {"tensor.scatter", "it has no bufferization"},
      {"linalg.winograd_filter_transform", "it has no bufferization"},
      {"linalg.winograd_input_transform", "it has no bufferization"},
      {"linalg.winograd_output_transform", "it has no bufferization"},
      {"tosa.custom", "it names an operator only its framework knows"},
      {"math.clampf", "it has no lowering to LLVM; use arith.minimumf and "
                      "arith.maximumf"},
      {"tosa.variable", "variables keep state between calls, which compiled "
                        "functions do not"},
      {"tosa.variable_read", "variables keep state between calls, which "
                             "compiled functions do not"},
      {"tosa.variable_write", "variables keep state between calls, which "
                              "compiled functions do not"},
      {"tosa.cast_to_block_scaled", "block-scaled types have no lowering"},
      {"tosa.cast_from_block_scaled", "block-scaled types have no lowering"},
      {"tosa.matmul_t_block_scaled", "block-scaled types have no lowering"},
  };
  auto it = reasons.find(op);
  if (it == reasons.end())
    return std::nullopt;
  return it->second;
}

mlir::LogicalResult checkInputContract(mlir::ModuleOp module) {
  static const llvm::StringSet<> allowed = {
      "func", "arith", "math", "tensor", "linalg",
      "tosa", "scf",   "cf",   "bufferization"};
  bool ok = true;
  // Pre-order, so that the ops nested in a rejected op are not reported too:
  // one error per offending op.
  module->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (op == module.getOperation())
      return mlir::WalkResult::advance();
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    if (!allowed.contains(dialect)) {
      op->emitError() << "op '" << op->getName()
                      << "' is outside the input contract: accepted dialects "
                         "are "
                      << kDialects;
      ok = false;
      return mlir::WalkResult::skip();
    }
    if (auto why = unlowerable(op->getName().getStringRef())) {
      op->emitError() << "op '" << op->getName()
                      << "' is not supported: the compiler cannot lower it ("
                      << *why << ")";
      ok = false;
      return mlir::WalkResult::skip();
    }
    auto checkType = [&](mlir::Type t) {
      if (isAcceptedType(t))
        return true;
      op->emitError() << "type '" << typeString(t) << "' of op '"
                      << op->getName()
                      << "' is outside the input contract: accepted types "
                         "are ranked tensors and scalars of "
                      << kElementTypes << " (and index)";
      ok = false;
      return false;
    };
    for (mlir::Type t : op->getResultTypes())
      if (!checkType(t))
        return mlir::WalkResult::skip();
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        for (mlir::BlockArgument arg : block.getArguments())
          if (!checkType(arg.getType()))
            return mlir::WalkResult::skip();
    return mlir::WalkResult::advance();
  });
  if (!ok)
    return mlir::failure();

  unsigned exported = 0;
  for (auto fn : module.getOps<mlir::func::FuncOp>()) {
    if (fn.isExternal()) {
      fn.emitError() << "function '" << fn.getSymName()
                     << "' is only declared; ahead-of-time compiled code "
                        "cannot call functions defined elsewhere";
      ok = false;
      continue;
    }
    if (!fn.isPublic())
      continue;
    ++exported;
    mlir::FunctionType type = fn.getFunctionType();
    for (auto [i, t] : llvm::enumerate(type.getInputs()))
      ok &= mlir::succeeded(checkBoundaryType(fn, t, false, i));
    for (auto [i, t] : llvm::enumerate(type.getResults()))
      ok &= mlir::succeeded(checkBoundaryType(fn, t, true, i));
  }
  if (ok && exported == 0)
    return module.emitError()
           << "the module has no public function to compile";
  return mlir::success(ok);
}

mlir::LogicalResult
checkFunctionNames(mlir::ModuleOp module,
                   llvm::function_ref<bool(llvm::StringRef)> isRuntimeName) {
  bool ok = true;
  for (auto fn : module.getOps<mlir::func::FuncOp>()) {
    llvm::StringRef name = fn.getSymName();
    if (name.empty()) {
      fn.emitError() << "a function needs a name to be compiled: '@\"\"' "
                        "has none";
      ok = false;
    } else if (name.starts_with("_mlir_") || name.starts_with("_aot_") ||
               name.starts_with("__")) {
      fn.emitError() << "function '" << name
                     << "' has a name the compiler keeps for symbols of its "
                        "own (names starting with '_mlir_', '_aot_' or "
                        "'__'); rename it";
      ok = false;
    } else if (isRuntimeName(name)) {
      fn.emitError() << "function '" << name
                     << "' has the name of a runtime function that compiled "
                        "code calls by name (from libc, libm, OpenMP or "
                        "mlir-aot's runtime): defined here, it would take "
                        "that function's place; rename it";
      ok = false;
    }
  }
  return mlir::success(ok);
}

} // namespace aot
