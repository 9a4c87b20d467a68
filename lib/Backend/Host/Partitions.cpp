//===- Partitions.cpp - LLVM's work on a module split among threads -------===//
#include "Backend/Host/Partitions.h"

#include "Backend/Host/LlvmBackend.h"
#include "Backend/Host/ObjectMerge.h"
#include "Support/FileWriter.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <thread>

namespace aot {

namespace {

constexpr llvm::StringLiteral kPartitionMetadata = "aot.partition";

/// Dispatch code per partition, in LLVM instructions. Below twice this a
/// module stays whole: threads would gain less than splitting costs.
constexpr uint64_t kInstructionsPerPartition = 8000;
/// The most partitions a module is split into, dispatches and host code
/// together; enough to keep a few threads busy with uneven partitions.
constexpr unsigned kMaxPartitions = 17;

/// Functions that may go to any partition: those never inlined (the
/// dispatches). The rest stay with the code that calls them.
bool movable(const llvm::Function &function) {
  return !function.isDeclaration() &&
         function.hasFnAttribute(llvm::Attribute::NoInline);
}

uint64_t instructionCount(const llvm::Function &function) {
  return function.getInstructionCount();
}

/// The partition recorded on `object`, 0 when none; -1 when malformed.
int64_t recordedPartition(const llvm::GlobalObject &object) {
  llvm::MDNode *node = object.getMetadata(kPartitionMetadata);
  if (!node)
    return 0;
  if (node->getNumOperands() != 1)
    return -1;
  auto *value =
      llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(0));
  if (!value || value->getValue().getActiveBits() > 16)
    return -1;
  return int64_t(value->getZExtValue());
}

void recordPartition(llvm::GlobalObject &object, unsigned partition) {
  llvm::LLVMContext &ctx = object.getContext();
  object.setMetadata(
      kPartitionMetadata,
      llvm::MDNode::get(ctx,
                        llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                            llvm::Type::getInt32Ty(ctx), partition))));
}

/// The partition of a global value: that of the global object it is or
/// aliases; aliases and ifuncs stay in partition 0.
unsigned partitionOf(const llvm::GlobalValue &value) {
  auto *object = llvm::dyn_cast<llvm::GlobalObject>(&value);
  if (!object)
    return 0;
  int64_t p = recordedPartition(*object);
  return p < 0 ? 0 : unsigned(p);
}

/// The functions whose code uses `value`, looking through constant
/// expressions (a global's address inside another global's initializer
/// counts as a use by partition 0, where globals live).
void forEachUser(const llvm::GlobalValue &value,
                 const std::function<void(unsigned)> &partitionOfUser) {
  llvm::SmallVector<const llvm::User *> work(value.users());
  llvm::SmallPtrSet<const llvm::User *, 8> seen;
  while (!work.empty()) {
    const llvm::User *user = work.pop_back_val();
    if (!seen.insert(user).second)
      continue;
    if (auto *inst = llvm::dyn_cast<llvm::Instruction>(user))
      partitionOfUser(partitionOf(*inst->getFunction()));
    else if (auto *global = llvm::dyn_cast<llvm::GlobalValue>(user))
      partitionOfUser(partitionOf(*global));
    else
      work.append(user->user_begin(), user->user_end());
  }
}

/// Gives external linkage and hidden visibility to the local symbols used
/// outside their own partition: the partitions' objects refer to them by
/// name until they are merged (ObjectMerge then makes them local again).
/// One without a name (OpenMP's source locations, `@0`) gets one: each
/// object would otherwise call it `__unnamed_N` by its own count.
void externalizeShared(llvm::Module &module) {
  auto visit = [](llvm::GlobalValue &value) {
    if (!value.hasLocalLinkage())
      return;
    unsigned home = partitionOf(value);
    bool shared = false;
    forEachUser(value, [&](unsigned p) { shared |= p != home; });
    if (!shared)
      return;
    if (!value.hasName())
      value.setName("aot.shared");
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  };
  for (llvm::Function &function : module)
    visit(function);
  for (llvm::GlobalVariable &global : module.globals())
    visit(global);
}

/// Erases the declarations nothing in `module` uses: what a partition refers
/// to then depends on its own code alone, and a local symbol of another
/// partition keeps its name when the partitions link back.
void dropUnusedDeclarations(llvm::Module &module) {
  for (llvm::Function &function : llvm::make_early_inc_range(module))
    if (function.isDeclaration() && function.use_empty())
      function.eraseFromParent();
  for (llvm::GlobalVariable &global :
       llvm::make_early_inc_range(module.globals()))
    if (global.isDeclaration() && global.use_empty())
      global.eraseFromParent();
}

/// A module of the definitions in `partition`, the rest declared.
std::unique_ptr<llvm::Module> clonePartition(const llvm::Module &module,
                                             unsigned partition) {
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> clone =
      llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
        return partitionOf(*value) == partition;
      });
  dropUnusedDeclarations(*clone);
  return clone;
}

std::string toBitcode(const llvm::Module &module) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::WriteBitcodeToFile(module, os);
  return bytes;
}

Expected<std::unique_ptr<llvm::Module>>
fromBitcode(const std::string &bytes, llvm::LLVMContext &context) {
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(bytes, "partition"), context);
  if (!module)
    return Error::message("internal error: cannot read a partition back: " +
                          llvm::toString(module.takeError()));
  return std::move(*module);
}

/// Runs `task(k)` for every partition k, on `pool` when there is one, and
/// returns the first error (by partition number).
Status forEachPartition(unsigned count, llvm::ThreadPoolInterface *pool,
                        const std::function<Status(unsigned)> &task) {
  std::vector<Status> results(count, Status::ok());
  auto run = [&](unsigned k) { results[k] = task(k); };
  if (pool) {
    llvm::ThreadPoolTaskGroup group(*pool);
    for (unsigned k = 0; k < count; ++k)
      group.async(run, k);
    group.wait();
  } else {
    // One at a time, but on a thread of its own: glibc gives a new thread
    // a heap arena of its own, and LLVM allocates much faster there than
    // in the arena the MLIR stages left fragmented (a sixth of the whole
    // compile of a 1000-dispatch model).
    std::thread worker([&] {
      for (unsigned k = 0; k < count; ++k)
        run(k);
    });
    worker.join();
  }
  for (Status &s : results)
    if (!s)
      return s;
  return Status::ok();
}

/// A partition read back into `context`, with a target machine of its own:
/// what one thread works on, sharing nothing with the others.
struct OwnPartition {
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<llvm::TargetMachine> tm;
};

Expected<OwnPartition> ownPartition(const std::string &bitcode,
                                    llvm::LLVMContext &context,
                                    const PartitionWork &work) {
  auto module = fromBitcode(bitcode, context);
  if (!module)
    return module.error();
  auto tm = createTargetMachine(work.target, work.optLevel);
  if (!tm)
    return tm.error();
  return OwnPartition{std::move(*module), std::move(*tm)};
}

} // namespace

void assignPartitions(llvm::Module &module) {
  for (llvm::Function &function : module)
    function.eraseMetadata(module.getContext().getMDKindID(kPartitionMetadata));
  for (llvm::GlobalVariable &global : module.globals())
    global.eraseMetadata(module.getContext().getMDKindID(kPartitionMetadata));

  uint64_t total = 0;
  for (const llvm::Function &function : module)
    if (movable(function))
      total += instructionCount(function);
  if (total < 2 * kInstructionsPerPartition)
    return;
  unsigned parts = unsigned(std::min<uint64_t>(
      kMaxPartitions - 1, total / kInstructionsPerPartition));
  // Consecutive dispatches fill one partition to its share of the total.
  uint64_t share = (total + parts - 1) / parts, filled = 0;
  unsigned current = 1;
  for (llvm::Function &function : module) {
    if (!movable(function))
      continue;
    if (filled >= share && current < parts) {
      ++current;
      filled = 0;
    }
    recordPartition(function, current);
    filled += instructionCount(function);
  }
  // A local global goes with the functions that use it when they are all
  // in one partition; the rest (weights, shared constants) stay in 0.
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!global.hasLocalLinkage() || !global.hasInitializer())
      continue;
    int home = -1;
    bool one = true;
    forEachUser(global, [&](unsigned p) {
      if (home < 0)
        home = int(p);
      one &= home == int(p);
    });
    if (home > 0 && one)
      recordPartition(global, unsigned(home));
  }
  externalizeShared(module);
}

Expected<unsigned> partitionCount(const llvm::Module &module) {
  unsigned count = 1;
  auto check = [&](const llvm::GlobalObject &object) -> Status {
    int64_t p = recordedPartition(object);
    if (p < 0)
      return Error::message("malformed !" + kPartitionMetadata.str() + " on @" +
                            object.getName().str() +
                            ": expected one i32 partition number");
    count = std::max(count, unsigned(p) + 1);
    return Status::ok();
  };
  for (const llvm::Function &function : module)
    if (Status s = check(function); !s)
      return s.error();
  for (const llvm::GlobalVariable &global : module.globals())
    if (Status s = check(global); !s)
      return s.error();
  return count;
}

Status optimizePartitions(llvm::Module &module, const PartitionWork &work) {
  auto count = partitionCount(module);
  if (!count)
    return count.error();

  // Partitions 1.. leave as bitcode, each to be read into a context of its
  // own; partition 0, with the weights, stays in `module` and its context.
  std::vector<std::string> bitcode(*count);
  if (*count > 1) {
    for (unsigned k = 1; k < *count; ++k)
      bitcode[k] = toBitcode(*clonePartition(module, k));
    for (llvm::Function &function : module)
      if (partitionOf(function) != 0)
        function.deleteBody();
    for (llvm::GlobalVariable &global : module.globals())
      if (partitionOf(global) != 0) {
        global.setInitializer(nullptr);
        global.setLinkage(llvm::GlobalValue::ExternalLinkage);
      }
    dropUnusedDeclarations(module);
  }

  Status optimized = forEachPartition(*count, work.pool, [&](unsigned k) {
    if (k == 0) {
      optimize(module, work.hostMachine, work.optLevel);
      return Status::ok();
    }
    llvm::LLVMContext context;
    auto part = ownPartition(bitcode[k], context, work);
    if (!part)
      return Status(part.error());
    optimize(*part->module, *part->tm, work.optLevel);
    // What the -O pipeline made (a merged constant, say) belongs here.
    for (llvm::Function &function : *part->module)
      if (!function.isDeclaration() && partitionOf(function) == 0)
        recordPartition(function, k);
    for (llvm::GlobalVariable &global : part->module->globals())
      if (global.hasInitializer() && partitionOf(global) == 0)
        recordPartition(global, k);
    bitcode[k] = toBitcode(*part->module);
    return Status::ok();
  });
  if (!optimized)
    return optimized;

  // Back into one module, in partition order.
  for (unsigned k = 1; k < *count; ++k) {
    auto part = fromBitcode(bitcode[k], module.getContext());
    if (!part)
      return part.error();
    if (llvm::Linker::linkModules(module, std::move(*part)))
      return Error::message(
          "internal error: the optimised partitions do not link back");
  }
  return Status::ok();
}

namespace {

/// Generates the objects of `count` partitions into `files` (partition 0
/// in `module`'s context, the others each in their own: only one thread at
/// a time touches a context); returns the names of the weights they define.
Expected<std::vector<std::string>>
generatePartitions(const llvm::Module &module, const PartitionWork &work,
                   unsigned count, const PartitionObjects &files) {
  std::unique_ptr<llvm::Module> host = clonePartition(module, 0);
  std::vector<std::string> weights =
      work.weights.defineAsZeros(module, *host, /*shared=*/true);
  std::vector<std::string> bitcode(count);
  for (unsigned k = 1; k < count; ++k)
    bitcode[k] = toBitcode(*clonePartition(module, k));
  Status generated = forEachPartition(count, work.pool, [&](unsigned k) {
    const std::string path = files.path(k);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return Status(Error::at(
          path, 0, 0, "cannot write a partition's object: " + ec.message()));
    Status emitted = Status::ok();
    if (k == 0) {
      emitted = emitObject(std::move(host), work.hostMachine, os);
    } else {
      llvm::LLVMContext context;
      auto part = ownPartition(bitcode[k], context, work);
      if (!part)
        return Status(part.error());
      emitted = emitObject(std::move(part->module), *part->tm, os);
      bitcode[k].clear();
    }
    if (!emitted)
      return emitted;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      return Status(
          Error::at(path, 0, 0, "cannot write a partition's object: " + why));
    }
    return Status::ok();
  });
  if (!generated)
    return generated.error();
  return weights;
}

} // namespace

Expected<std::string> emitPartitionedObject(const llvm::Module &module,
                                            const PartitionWork &work) {
  auto count = partitionCount(module);
  if (!count)
    return count.error();
  if (*count == 1) {
    // One object, made in memory: nothing to merge.
    std::unique_ptr<llvm::Module> host = llvm::CloneModule(module);
    std::vector<std::string> weights =
        work.weights.defineAsZeros(module, *host, /*shared=*/false);
    auto object = emitMachineCode(std::move(host), work.hostMachine,
                                  /*assembly=*/false);
    if (!object)
      return object.error();
    if (Status s = work.weights.patch(*object, weights); !s)
      return s.error();
    return object;
  }
  PartitionObjects files;
  if (Status s = files.create(); !s)
    return s.error();
  auto weights = generatePartitions(module, work, *count, files);
  if (!weights)
    return weights.error();
  const std::string merged = files.mergedPath();
  if (Status s = files.merge(*count, module.getTargetTriple().str(), merged);
      !s)
    return s.error();
  auto object = PartitionObjects::read(merged);
  if (!object)
    return object.error();
  if (Status s = work.weights.patch(*object, *weights); !s)
    return s.error();
  return object;
}

Status writePartitionedObject(const llvm::Module &module,
                              const PartitionWork &work,
                              const std::string &path,
                              const std::string &shown) {
  auto count = partitionCount(module);
  if (!count)
    return count.error();
  std::vector<std::string> weights;
  if (*count > 1) {
    PartitionObjects files;
    if (Status s = files.create(); !s)
      return s;
    auto defined = generatePartitions(module, work, *count, files);
    if (!defined)
      return defined.error();
    if (Status s = files.merge(*count, module.getTargetTriple().str(), path);
        !s)
      return s;
    weights = std::move(*defined);
  } else {
    std::unique_ptr<llvm::Module> host = llvm::CloneModule(module);
    weights = work.weights.defineAsZeros(module, *host, /*shared=*/false);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return Error::at(shown, 0, 0, "cannot write: " + ec.message());
    if (Status s = emitObject(std::move(host), work.hostMachine, os); !s)
      return s;
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      return Error::at(shown, 0, 0, "cannot write: " + why);
    }
  }
  // The weights are written into the file: never in memory a second time.
  return work.weights.patchFile(path, shown, weights);
}

} // namespace aot
