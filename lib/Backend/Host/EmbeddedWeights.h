//===- EmbeddedWeights.h - large constants kept out of LLVM's way ---------===//
//
// No LLVM pass gains from seeing the contents of megabytes of weights, yet
// an LLVM constant, the assembler's copy of its section and the object
// would each hold them. So from translation to code generation a large
// constant is a declaration of the LLVM module while its bytes stay where
// the parser put them (or, for LLVM IR read from text, in the constant the
// parser made); code generation emits zeros in its place, which are then
// overwritten in the object with the bytes. The text of the LLVM IR stages
// and the assembly show the weights as the constants they are, so a
// compile resumed from that text makes the same object.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Backend/Host/ReservedWeights.h"
#include "aot/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/GlobalValue.h"
#include "llvm/IR/Module.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aot {

class EmbeddedWeights {
public:
  /// Constants this large or larger are kept aside.
  static constexpr uint64_t kMinBytes = 4096;

  /// Before translation: each large constant global of the LLVM dialect
  /// that aot-weights-as-bytes made bytes becomes a declaration; its bytes,
  /// which live as long as the MLIR context, are kept aside.
  void takeFrom(mlir::ModuleOp module);
  /// After translation or parsing: the same for the LLVM globals whose
  /// initializer is a large byte string.
  void takeFrom(llvm::Module &module);

  /// Runs `fn` with the weights that `module` declares defined by their
  /// bytes again, as they were before takeFrom: for text of the IR or the
  /// assembly.
  void withDefinitions(llvm::Module &module,
                       llvm::function_ref<void()> fn) const;

  /// Defines in `host`, a module about to be code-generated, every weight
  /// that `whole` (the module it was split from, or the same module)
  /// declares, with zeros as contents (in the reserved section, without
  /// bytes in the object, where the target has one: ReservedWeights.h):
  /// local to the object, or with hidden visibility when `shared` with
  /// other partitions' objects. Returns their names.
  std::vector<std::string> defineAsZeros(const llvm::Module &whole,
                                         llvm::Module &host, bool shared) const;
  /// Writes the bytes of the weights named `defined` into `object`, the
  /// object code made with them: over their zeros, or as the contents of
  /// the reserved section, at the object's end.
  Status patch(std::string &object,
               const std::vector<std::string> &defined) const;
  /// The same for the object in the file `path`, written in place from the
  /// bytes the weights came from: no copy of the object in memory. Errors
  /// name `shown`.
  Status patchFile(const std::string &path, const std::string &shown,
                   const std::vector<std::string> &defined) const;

  bool empty() const { return weights_.empty(); }

private:
  /// What a weight was before it became a declaration.
  struct Weight {
    llvm::StringRef bytes;
    llvm::GlobalValue::LinkageTypes linkage;
    llvm::GlobalValue::VisibilityTypes visibility;
    llvm::GlobalValue::UnnamedAddr unnamedAddr;
    bool dsoLocal;
  };
  void keep(llvm::StringRef name, llvm::StringRef bytes,
            llvm::GlobalValue::LinkageTypes linkage,
            llvm::GlobalValue::VisibilityTypes visibility,
            llvm::GlobalValue::UnnamedAddr unnamedAddr, bool dsoLocal);
  /// Where a weight's zeros lie in an object, or where in the reserved
  /// section it goes.
  struct Placement {
    uint64_t offset;
    llvm::StringRef name;
    llvm::StringRef bytes;
  };
  /// The place of each weight named `defined` in `object`, or an error
  /// naming one that is missing, doubled or does not fit.
  Expected<std::vector<Placement>>
  place(llvm::StringRef object, const std::vector<std::string> &defined) const;
  /// Where the reserved sections' contents go once filled: each at the
  /// end of the object in turn, its header rewritten to point there.
  struct ReservedLayout {
    /// (where a section's header lies, where its contents go).
    std::vector<std::pair<uint64_t, uint64_t>> headers;
    /// The object's size once filled.
    uint64_t size = 0;
  };
  /// The place in the filled object of each weight named `defined`, in the
  /// reserved `sections` of an object of `objectSize` bytes laid out as
  /// `layout` says.
  Expected<std::vector<Placement>>
  placeReserved(const std::vector<ReservedSection> &sections,
                uint64_t objectSize, const std::vector<std::string> &defined,
                ReservedLayout &layout) const;
  /// place or placeReserved, whichever `object` calls for: `layout` is set
  /// where it reserves the weights' room.
  Expected<std::vector<Placement>>
  locate(llvm::StringRef object, const std::vector<std::string> &defined,
         std::optional<ReservedLayout> &layout) const;
  /// The weights `module` declares.
  std::vector<std::pair<llvm::GlobalVariable *, const Weight *>>
  declaredIn(llvm::Module &module) const;

  llvm::StringMap<Weight> weights_;
};

} // namespace aot
