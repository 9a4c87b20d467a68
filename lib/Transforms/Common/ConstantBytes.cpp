//===- ConstantBytes.cpp - the bytes of a constant, without a copy --------===//
#include "Transforms/Common/ConstantBytes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>

namespace aot {

std::string weightName(mlir::Location loc) {
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
    return name.getName().str();
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    return llvm::sys::path::filename(file.getFilename().getValue()).str() +
           ":" + std::to_string(file.getLine()) + ":" +
           std::to_string(file.getColumn());
  if (auto callSite = llvm::dyn_cast<mlir::CallSiteLoc>(loc))
    return weightName(callSite.getCallee());
  if (auto fused = llvm::dyn_cast<mlir::FusedLoc>(loc))
    for (mlir::Location inner : fused.getLocations())
      if (std::string name = weightName(inner); !name.empty())
        return name;
  return "";
}

void WeightBytes::copyTo(char *out) const {
  if (!splat) {
    std::memcpy(out, data.data(), data.size());
    return;
  }
  for (uint64_t at = 0; at < size; at += data.size())
    std::memcpy(out + at, data.data(), data.size());
}

std::optional<WeightBytes> weightBytes(mlir::Attribute value,
                                       uint64_t minBytes) {
  auto elements = llvm::dyn_cast_or_null<mlir::ElementsAttr>(value);
  if (!elements)
    return std::nullopt;
  auto type = llvm::cast<mlir::ShapedType>(elements.getType());
  mlir::Type elementType = type.getElementType();
  unsigned bits = elementType.isIndex() ? 64 : 0;
  if (elementType.isIntOrFloat())
    bits = elementType.getIntOrFloatBitWidth();
  if (bits == 0 || bits % 8 != 0 || !type.hasStaticShape())
    return std::nullopt;
  WeightBytes bytes;
  bytes.type = type;
  bytes.size = uint64_t(type.getNumElements()) * (bits / 8);
  if (bytes.size < std::max<uint64_t>(minBytes, 1))
    return std::nullopt;
  if (auto dense = llvm::dyn_cast<mlir::DenseIntOrFPElementsAttr>(value)) {
    bytes.data = dense.getRawData();
    bytes.splat = dense.isSplat();
  } else if (auto resource =
                 llvm::dyn_cast<mlir::DenseResourceElementsAttr>(value)) {
    mlir::AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    bytes.data = blob->getData();
  } else {
    return std::nullopt;
  }
  if (bytes.splat) {
    if (std::all_of(bytes.data.begin(), bytes.data.end(),
                    [](char c) { return c == 0; }))
      return std::nullopt;
  } else if (bytes.data.size() != bytes.size) {
    return std::nullopt;
  }
  return bytes;
}

} // namespace aot
