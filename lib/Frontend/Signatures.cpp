//===- Signatures.cpp - the manifest entries of a module ------------------===//
#include "Frontend/Frontend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace aot {

/// The unsigned dtype of a signless integer's width (the contract admits
/// `aot.unsigned` on i8 to i64 tensors only).
static abi::DType unsignedOf(abi::DType signless) {
  switch (signless) {
  case abi::DType::I8:
    return abi::DType::U8;
  case abi::DType::I16:
    return abi::DType::U16;
  case abi::DType::I32:
    return abi::DType::U32;
  default:
    return abi::DType::U64;
  }
}

static mlir::FailureOr<ValueSig> valueSig(mlir::func::FuncOp fn, mlir::Type t,
                                          const char *what, unsigned index,
                                          bool isUnsigned) {
  ValueSig v;
  mlir::Type elem = t;
  if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(t);
      shaped && shaped.hasRank() &&
      llvm::isa<mlir::RankedTensorType, mlir::MemRefType>(t)) {
    v.kind = ValueSig::Kind::Tensor;
    elem = shaped.getElementType();
    for (int64_t d : shaped.getShape())
      v.shape.push_back(mlir::ShapedType::isDynamic(d) ? -1 : d);
  } else {
    v.kind = ValueSig::Kind::Scalar;
  }
  auto dtype = dtypeOf(elem);
  if (!dtype)
    return fn.emitError() << "cannot export '" << fn.getSymName() << "': "
                          << what << " " << index << " has type " << t
                          << ", which the ABI cannot carry";
  v.dtype = isUnsigned ? unsignedOf(*dtype) : *dtype;
  return v;
}

mlir::FailureOr<std::vector<FunctionSig>>
extractSignatures(mlir::ModuleOp module) {
  std::vector<FunctionSig> sigs;
  for (auto fn : module.getOps<mlir::func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    FunctionSig sig;
    sig.name = fn.getSymName().str();
    sig.symbol = "_mlir_ciface_" + sig.name;
    mlir::FunctionType type = fn.getFunctionType();
    for (auto [i, t] : llvm::enumerate(type.getInputs())) {
      auto v =
          valueSig(fn, t, "argument", i, bool(fn.getArgAttr(i, kUnsignedAttr)));
      if (mlir::failed(v))
        return mlir::failure();
      sig.args.push_back(*v);
    }
    for (auto [i, t] : llvm::enumerate(type.getResults())) {
      auto v = valueSig(fn, t, "result", i,
                        bool(fn.getResultAttr(i, kUnsignedAttr)));
      if (mlir::failed(v))
        return mlir::failure();
      sig.results.push_back(*v);
    }
    sigs.push_back(std::move(sig));
  }
  return sigs;
}

} // namespace aot
