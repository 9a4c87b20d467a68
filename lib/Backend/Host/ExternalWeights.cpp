//===- ExternalWeights.cpp - constants moved into a safetensors file ------===//
#include "Backend/Host/ExternalWeights.h"

#include "Frontend/Frontend.h"
#include "Support/FileWriter.h"
#include "Transforms/Common/ConstantBytes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace aot {

static constexpr llvm::StringLiteral kSlotsName = "__aot_weight_slots";
static constexpr llvm::StringLiteral kTableName = "__aot_weights";

/// The dtype names of the safetensors format; nullopt for a type that stays
/// in the code (DTypes.def says why).
static std::optional<std::string_view> safetensorsDType(abi::DType dtype) {
  std::string_view name;
  switch (dtype) {
#define AOT_DTYPE(id, dtypeName, type, spelling, bytes, npy, safetensors)      \
  case abi::DType::id:                                                         \
    name = safetensors;                                                        \
    break;
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
  }
  if (name.empty())
    return std::nullopt;
  return name;
}

static std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(value));
  return text;
}

namespace {
struct Weight {
  mlir::LLVM::GlobalOp global;
  WeightBytes bytes;
  WeightSig sig;
  std::string_view fileDType;
  uint64_t offset = 0;
  unsigned elementBytes = 1;
};
} // namespace

static uint64_t hashOf(const WeightBytes &bytes) {
  if (!bytes.splat)
    return XXH3_64bits(bytes.data.data(), bytes.data.size());
  XXH3_state_t *state = XXH3_createState();
  XXH3_64bits_reset(state);
  for (uint64_t at = 0; at < bytes.size; at += bytes.data.size())
    XXH3_64bits_update(state, bytes.data.data(), bytes.data.size());
  uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return hash;
}

/// The safetensors file: header length, JSON header padded with spaces so
/// the data starts 64-byte aligned, then every tensor's bytes in order.
static Status writeSafetensors(const std::string &file,
                               const std::vector<Weight> &weights,
                               const std::string &moduleName) {
  llvm::json::Object header;
  for (const Weight &w : weights) {
    llvm::json::Array shape;
    for (int64_t d : w.sig.shape)
      shape.push_back(d);
    header[w.sig.name] = llvm::json::Object{
        {"dtype", std::string(w.fileDType)},
        {"shape", std::move(shape)},
        {"data_offsets",
         llvm::json::Array{static_cast<int64_t>(w.offset),
                           static_cast<int64_t>(w.offset + w.sig.bytes)}}};
  }
  header["__metadata__"] = llvm::json::Object{{"module", moduleName}};
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(std::move(header));
  text.append((64 - (8 + text.size()) % 64) % 64, ' ');

  TemporaryOutput output(file);
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(output.path(), ec);
    if (ec)
      return Error::at(file, 0, 0, "cannot write weights: " + ec.message());
    char length[8];
    for (int i = 0; i < 8; ++i)
      length[i] = char((uint64_t(text.size()) >> (8 * i)) & 0xff);
    os.write(length, 8);
    os << text;
    for (const Weight &w : weights) {
      if (!w.bytes.splat) {
        os.write(w.bytes.data.data(), w.bytes.data.size());
        continue;
      }
      for (uint64_t at = 0; at < w.bytes.size; at += w.bytes.data.size())
        os.write(w.bytes.data.data(), w.bytes.data.size());
    }
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      return Error::at(file, 0, 0, "cannot write weights: " + why);
    }
  }
  if ((ec = output.commit()))
    return Error::at(file, 0, 0, "cannot write weights: " + ec.message());
  return Status::ok();
}

Expected<ExternalWeights> externalizeWeights(mlir::ModuleOp module,
                                             const std::string &file,
                                             std::uint64_t minBytes,
                                             const std::string &moduleName) {
  std::vector<Weight> weights;
  std::map<std::string, int> names;
  for (auto global : module.getOps<mlir::LLVM::GlobalOp>()) {
    if (!global.getConstant())
      continue;
    std::optional<WeightBytes> bytes =
        weightBytes(global.getValueOrNull(), minBytes);
    if (!bytes)
      continue;
    // aot-weights-as-bytes left the constant's own type beside its bytes.
    if (auto type = global->getAttrOfType<mlir::TypeAttr>(kWeightTypeAttr))
      bytes->type = llvm::cast<mlir::ShapedType>(type.getValue());
    std::optional<abi::DType> dtype = dtypeOf(bytes->type.getElementType());
    std::optional<std::string_view> fileDType =
        dtype ? safetensorsDType(*dtype) : std::nullopt;
    if (!fileDType)
      continue;
    Weight w;
    w.global = global;
    w.bytes = *bytes;
    w.fileDType = *fileDType;
    w.elementBytes = bytes->type.getElementTypeBitWidth() / 8;
    w.sig.dtype = *dtype;
    w.sig.shape.assign(bytes->type.getShape().begin(),
                       bytes->type.getShape().end());
    w.sig.bytes = bytes->size;
    w.sig.xxh3 = hex64(hashOf(*bytes));
    std::string name;
    if (auto given = global->getAttrOfType<mlir::StringAttr>(kWeightNameAttr))
      name = given.getValue().str();
    else
      name = weightName(global.getLoc());
    if (name.empty())
      name = global.getSymName().str();
    int seen = names[name]++;
    w.sig.name = seen ? name + "#" + std::to_string(seen + 1) : name;
    weights.push_back(std::move(w));
  }
  ExternalWeights out;
  if (weights.empty())
    return out;

  // Larger elements first: with the data 64-byte aligned, every tensor then
  // starts at a multiple of its element size.
  std::stable_sort(weights.begin(), weights.end(),
                   [](const Weight &a, const Weight &b) {
                     return a.elementBytes > b.elementBytes;
                   });
  uint64_t offset = 0;
  for (Weight &w : weights) {
    w.offset = offset;
    offset += w.sig.bytes;
  }
  if (Status s = writeSafetensors(file, weights, moduleName); !s)
    return s.error();

  // The code reads weight k through slot k of one array that the loader
  // fills; the array is defined (zeroed, internal) in LLVM IR.
  mlir::MLIRContext *ctx = module.getContext();
  auto ptr = mlir::LLVM::LLVMPointerType::get(ctx);
  auto slotsType = mlir::LLVM::LLVMArrayType::get(ptr, weights.size());
  mlir::OpBuilder b(ctx);
  b.setInsertionPointToStart(module.getBody());
  mlir::LLVM::GlobalOp::create(b, module.getLoc(), slotsType,
                               /*isConstant=*/false,
                               mlir::LLVM::Linkage::External, kSlotsName,
                               mlir::Attribute());
  llvm::DenseMap<mlir::StringAttr, unsigned> slotOf;
  for (unsigned k = 0; k < weights.size(); ++k)
    slotOf[weights[k].global.getSymNameAttr()] = k;
  llvm::SmallVector<mlir::LLVM::AddressOfOp> uses;
  module.walk([&](mlir::LLVM::AddressOfOp use) {
    if (slotOf.count(use.getGlobalNameAttr().getAttr()))
      uses.push_back(use);
  });
  for (mlir::LLVM::AddressOfOp use : uses) {
    unsigned k = slotOf.lookup(use.getGlobalNameAttr().getAttr());
    b.setInsertionPoint(use);
    mlir::Location loc = use.getLoc();
    auto slots = mlir::LLVM::AddressOfOp::create(b, loc, ptr, kSlotsName);
    auto slot = mlir::LLVM::GEPOp::create(
        b, loc, ptr, slotsType, slots,
        llvm::ArrayRef<mlir::LLVM::GEPArg>{0, static_cast<int32_t>(k)});
    auto address = mlir::LLVM::LoadOp::create(b, loc, ptr, slot);
    use.getResult().replaceAllUsesWith(address.getResult());
    use.erase();
  }
  for (Weight &w : weights) {
    out.tensors.push_back(w.sig);
    w.global.erase();
  }
  out.file = file;
  // Named after what it loads, so that the code of two models linked into
  // one program has two load functions, and the name is the same for every
  // compile of the same weights.
  std::string identity;
  for (const WeightSig &w : out.tensors)
    identity += w.name + '\n' + w.xxh3 + '\n';
  out.load = "_aot_load_weights_" +
             hex64(XXH3_64bits(identity.data(), identity.size()));
  return out;
}

Status addWeightsLoader(llvm::Module &module, const Manifest &manifest) {
  const ExternalWeights &weights = manifest.weights;
  if (weights.empty())
    return Status::ok();
  llvm::LLVMContext &ctx = module.getContext();
  llvm::GlobalVariable *slots = module.getGlobalVariable(kSlotsName, true);
  if (!slots || !slots->isDeclaration())
    return Error::message("internal error: the LLVM IR has no declaration of "
                          "the weight slots '" +
                          kSlotsName.str() + "'");
  slots->setInitializer(llvm::Constant::getNullValue(slots->getValueType()));
  slots->setLinkage(llvm::GlobalValue::InternalLinkage);

  llvm::json::Array tensors;
  for (const WeightSig &w : weights.tensors) {
    llvm::json::Array shape;
    for (int64_t d : w.shape)
      shape.push_back(d);
    tensors.push_back(
        llvm::json::Object{{"name", w.name},
                           {"dtype", std::string(*safetensorsDType(w.dtype))},
                           {"shape", std::move(shape)},
                           {"bytes", static_cast<int64_t>(w.bytes)},
                           {"xxh3", w.xxh3}});
  }
  std::string tensorsJson;
  llvm::raw_string_ostream(tensorsJson)
      << llvm::json::Value(std::move(tensors));

  llvm::IRBuilder<> b(ctx);
  auto string = [&](llvm::StringRef text, const char *name) {
    auto *init = llvm::ConstantDataArray::getString(ctx, text);
    return new llvm::GlobalVariable(module, init->getType(), true,
                                    llvm::GlobalValue::PrivateLinkage, init,
                                    name);
  };
  llvm::Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty(), *ptr = b.getPtrTy();
  // aot::abi::WeightsTable, field by field.
  auto *tableType = llvm::StructType::create(
      ctx, {i32, i32, ptr, ptr, ptr, i64, ptr, ptr, i64}, "aot.WeightsTable");
  auto *table = new llvm::GlobalVariable(
      module, tableType, /*isConstant=*/false,
      llvm::GlobalValue::InternalLinkage,
      llvm::ConstantStruct::get(
          tableType,
          {b.getInt32(1), b.getInt32(0),
           string(weights.file, "__aot_weights_file"),
           string(manifest.module, "__aot_weights_module"),
           string(tensorsJson, "__aot_weights_tensors"),
           b.getInt64(weights.tensors.size()), slots,
           llvm::ConstantPointerNull::get(b.getPtrTy()), b.getInt64(0)}),
      kTableName);
  table->setAlignment(llvm::Align(8));

  llvm::FunctionCallee load = module.getOrInsertFunction(
      "aotWeightsLoad",
      llvm::FunctionType::get(i32, {ptr, ptr, ptr, i64}, false));
  llvm::FunctionCallee ensure = module.getOrInsertFunction(
      "aotWeightsEnsure", llvm::FunctionType::get(b.getVoidTy(), {ptr}, false));

  auto *loader = llvm::Function::Create(
      llvm::FunctionType::get(i32, {ptr, ptr, i64}, false),
      llvm::GlobalValue::ExternalLinkage, weights.load, module);
  if (loader->getName() != weights.load)
    return Error::message("the module already defines '" + weights.load +
                          "', the name of its weights' load function");
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", loader));
  b.CreateRet(b.CreateCall(
      load, {table, loader->getArg(0), loader->getArg(1), loader->getArg(2)}));

  for (const FunctionSig &sig : manifest.functions)
    for (const std::string &symbol : {sig.symbol, sig.deviceSymbol}) {
      llvm::Function *entry =
          symbol.empty() ? nullptr : module.getFunction(symbol);
      if (!entry || entry->isDeclaration())
        continue;
      b.SetInsertPoint(&*entry->getEntryBlock().getFirstInsertionPt());
      b.CreateCall(ensure, {table});
    }
  return Status::ok();
}

} // namespace aot
