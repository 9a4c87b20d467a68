//===- LoadedModule.cpp - running compiled code in this process -----------===//
//
// The object code is linked in memory by ORC, against this process's libc and
// libm and against the runtime linked into this library, so loading needs no
// temporary files and no system linker. Calls go through the type-erased
// `_aot_invoke_NAME` entry points, after every argument has been checked
// against the manifest.
//
//===----------------------------------------------------------------------===//
#include "aot/Artifact.h"

#include "Backend/Backend.h"
#include "Backend/Host/LlvmBackend.h"
#include "Backend/LinkTable.h"

#include "aot/abi/CudaStatus.h"
#include "aot/abi/Ownership.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <dlfcn.h>
#include <limits>

namespace aot {

struct LoadedModule::Impl {
  Manifest manifest;
  Target target;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::map<std::string, void (*)(void **), std::less<>> entries;
  /// The GPU runtime's status of this code: the one linked into the
  /// compiler for code loaded in memory, the library's own copy for a
  /// shared library.
  int (*cudaStatus)() = aotCudaStatus;
  const char *(*cudaLastError)() = aotCudaLastError;
};

LoadedModule::LoadedModule(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
LoadedModule::LoadedModule(LoadedModule &&) noexcept = default;
LoadedModule &LoadedModule::operator=(LoadedModule &&) noexcept = default;
LoadedModule::~LoadedModule() = default;

const Manifest &LoadedModule::manifest() const { return impl_->manifest; }

using WeightsLoader = std::int32_t (*)(const char *, char *, std::uint64_t);

/// Loads the external weights when the module is loaded, so that a missing
/// or different file is an error of the load, not an abort at the first call.
/// The default file, as the code's first call would load it: the file of
/// the compile-time name beside the library if there is one, else the
/// compile-time path, both as the code holds them (the manifest's copy is
/// text for people, and cannot spell every path).
static Status loadWeights(const Manifest &manifest, WeightsLoader load) {
  char error[1024] = {};
  if (load(nullptr, error, sizeof error) != 0)
    return Error::message(std::string("cannot load module '") +
                          manifest.module + "': " + error);
  return Status::ok();
}

static Error jitError(const std::string &what, llvm::Error err) {
  return Error::message(what + ": " + llvm::toString(std::move(err)));
}

Expected<LoadedModule> Artifact::load() const {
  const std::optional<std::string> &object = stage(Stage::Object);
  if (!object)
    return Error::message("cannot load: the compile stopped at stage '" +
                          std::string(stageName(lastStage())) +
                          "', before object code");
  initializeTargets();
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(*object, manifest_.module));
  if (!file)
    return jitError("cannot read the object code", file.takeError());
  llvm::Triple host(llvm::sys::getProcessTriple());
  if ((*file)->getArch() != host.getArch())
    return Error::message("cannot load code compiled for " + manifest_.target +
                          " into this " + host.str() + " process");

  // Parallel loops call libomp: loaded into the process for good, where
  // the search of the process's symbols below finds it.
  if (std::find(manifest_.link.begin(), manifest_.link.end(), kOpenMpLibrary) !=
      manifest_.link.end()) {
    std::string omp(openMpLibraryPath()), why;
    if (omp.empty())
      return Error::message(
          "cannot load: the code runs parallel loops on LLVM's OpenMP "
          "runtime (libomp), which was not found when mlir-aot was built; "
          "compile with threads 1");
    if (!llvm::sys::DynamicLibrary::getPermanentLibrary(omp.c_str(), &why)
             .isValid())
      return Error::message("cannot load the OpenMP runtime " + omp + ": " +
                            why);
  }
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jitError("cannot create the in-process linker", jit.takeError());
  llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return jitError("cannot search this process's symbols",
                    process.takeError());
  dylib.addGenerator(std::move(*process));
  // The runtime's symbols, from the link table that also decides what a
  // written library links: the loader binds them to the runtime linked in.
  llvm::orc::SymbolMap runtime;
  for (const LinkSymbol &symbol : backendFor(target_).linkTable())
    if ((symbol.library == kRuntimeLibrary ||
         symbol.library == kCudaRuntimeLibrary) &&
        symbol.address)
      runtime[(*jit)->mangleAndIntern(
          llvm::StringRef(symbol.name.data(), symbol.name.size()))] = {
          llvm::orc::ExecutorAddr::fromPtr(symbol.address),
          llvm::JITSymbolFlags::Exported};
  if (llvm::Error err = dylib.define(llvm::orc::absoluteSymbols(runtime)))
    return jitError("cannot define the runtime symbols", std::move(err));
  if (llvm::Error err = (*jit)->addObjectFile(
          llvm::MemoryBuffer::getMemBufferCopy(*object, manifest_.module)))
    return jitError("cannot add the object code", std::move(err));

  auto impl = std::make_unique<LoadedModule::Impl>();
  impl->manifest = manifest_;
  impl->target = target_;
  for (const FunctionSig &f : manifest_.functions) {
    auto addr = (*jit)->lookup(kInvokePrefix + f.name);
    if (!addr)
      return jitError("cannot find the entry point of '" + f.name + "'",
                      addr.takeError());
    impl->entries[f.name] = addr->toPtr<void (*)(void **)>();
  }
  if (const ExternalWeights &weights = manifest_.weights; !weights.empty()) {
    auto addr = (*jit)->lookup(weights.load);
    if (!addr)
      return jitError("cannot find the weights' load function '" +
                          weights.load + "'",
                      addr.takeError());
    if (Status s = loadWeights(manifest_, addr->toPtr<WeightsLoader>()); !s)
      return s.error();
  }
  impl->jit = std::move(*jit);
  return LoadedModule(std::move(impl));
}

Expected<LoadedModule> LoadedModule::open(const std::string &path) {
  auto manifests = embeddedManifests(path);
  if (!manifests)
    return manifests.error();
  if (manifests->size() != 1)
    return Error::at(path, 0, 0,
                     "holds " + std::to_string(manifests->size()) +
                         " modules; a shared library to load holds one");
  auto target = Target::parse(manifests->front().target);
  if (!target)
    return target.error();
  // Code for another machine: dlopen would say only that it cannot open it.
  if (auto binary = llvm::object::ObjectFile::createObjectFile(path)) {
    llvm::Triple::ArchType arch = binary->getBinary()->getArch();
    llvm::Triple host(llvm::sys::getProcessTriple());
    if (arch != host.getArch())
      return Error::at(path, 0, 0,
                       "holds " + llvm::Triple::getArchTypeName(arch).str() +
                           " code (target " + manifests->front().target +
                           "), which cannot run in this " +
                           host.getArchName().str() + " process");
  } else {
    llvm::consumeError(binary.takeError());
  }
  // A path without a slash would be searched for on the library path.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void *library = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return Error::at(path, 0, 0, std::string("cannot load: ") + ::dlerror());
  auto impl = std::make_unique<Impl>();
  impl->manifest = std::move(manifests->front());
  impl->target = *target;
  auto symbol = [&](const std::string &name) -> Expected<void *> {
    if (void *address = ::dlsym(library, name.c_str()))
      return address;
    return Error::at(path, 0, 0, "has no symbol '" + name + "'");
  };
  for (const FunctionSig &f : impl->manifest.functions) {
    auto address = symbol(kInvokePrefix + f.name);
    if (!address)
      return address.error();
    impl->entries[f.name] = reinterpret_cast<void (*)(void **)>(*address);
  }
  if (target->kind == Target::Kind::Cuda) {
    auto status = symbol("aotCudaStatus");
    auto lastError = symbol("aotCudaLastError");
    if (!status)
      return status.error();
    if (!lastError)
      return lastError.error();
    impl->cudaStatus = reinterpret_cast<int (*)()>(*status);
    impl->cudaLastError = reinterpret_cast<const char *(*)()>(*lastError);
  }
  if (const ExternalWeights &weights = impl->manifest.weights;
      !weights.empty()) {
    auto load = symbol(weights.load);
    if (!load)
      return load.error();
    if (Status s =
            loadWeights(impl->manifest, reinterpret_cast<WeightsLoader>(*load));
        !s)
      return s.error();
  }
  return LoadedModule(std::move(impl));
}

namespace {
/// What a result's sizes and strides hold until the code writes them, and
/// the words after them: a library whose code writes a descriptor of
/// another rank than its manifest says is caught by what stays or changes.
constexpr std::int64_t kUnwritten = std::numeric_limits<std::int64_t>::min();
constexpr size_t kResultSlack = 16;

/// Descriptor storage in MLIR's layout: allocated, aligned, offset, sizes,
/// strides, each one 64-bit word.
struct Descriptor {
  std::vector<std::int64_t> words;
  void *address = nullptr; // what the slot points at for an argument

  /// An argument's descriptor, or a result's: the latter filled with
  /// kUnwritten past its pointers, slack words included.
  Descriptor(int rank, bool result)
      : words(3 + 2 * std::size_t(rank) + (result ? kResultSlack : 0)),
        rank_(rank) {
    if (result)
      std::fill(words.begin() + 3, words.end(), kUnwritten);
  }
  int rank() const { return rank_; }
  void *allocated() const { return reinterpret_cast<void *>(words[0]); }

private:
  int rank_;
};

std::optional<abi::DType> scalarDType(const CallArg &arg) {
  switch (arg.index()) {
  case 1:
    return abi::DType::I1;
  case 2:
    return abi::DType::I8;
  case 3:
    return abi::DType::I16;
  case 4:
    return abi::DType::I32;
  case 5:
    return abi::DType::I64;
  case 6:
    return abi::DType::F32;
  case 7:
    return abi::DType::F64;
  default:
    return std::nullopt;
  }
}

Status checkTensor(const std::string &fn, size_t i, const ValueSig &sig,
                   const abi::Tensor &t) {
  std::string where = "call to '" + fn + "': argument " + std::to_string(i);
  if (t.dtype() != sig.dtype)
    return Error::message(where + " has dtype " +
                          std::string(abi::dtypeName(t.dtype())) +
                          ", but the function takes " + sig.str());
  if (t.rank() != sig.rank())
    return Error::message(where + " has rank " + std::to_string(t.rank()) +
                          " (shape " + abi::shapeString(t.shape()) +
                          "), but the function takes " + sig.str());
  for (int d = 0; d < sig.rank(); ++d) {
    if (t.shape()[d] < 0)
      return Error::message(where + " has a negative size in dim " +
                            std::to_string(d));
    if (sig.shape[d] >= 0 && t.shape()[d] != sig.shape[d])
      return Error::message(
          where + " has shape " + abi::shapeString(t.shape()) +
          ", but the function takes " + sig.str() + " (dim " +
          std::to_string(d) + " must be " + std::to_string(sig.shape[d]) + ")");
  }
  if (!t.rawData() && t.numElements() != 0)
    return Error::message(where + " has no data");
  return Status::ok();
}

/// The memory of one call: descriptors and scalars in MLIR's layout, and the
/// slots the entry point reads its arguments and writes its results through.
struct CallFrame {
  explicit CallFrame(size_t values) : scalars(values) {
    // Slots point into the descriptors: they must never move.
    descriptors.reserve(values);
  }
  std::vector<Descriptor> descriptors;
  std::vector<std::int64_t> scalars;
  std::vector<void *> slots;
  /// The buffers of the tensor arguments: a result that is one of them
  /// borrows it instead of owning it.
  std::vector<void *> callerAllocated;
  /// The index in `descriptors` of the first tensor result.
  size_t firstResult = 0;
};

Status packScalar(const std::string &name, size_t i, const ValueSig &expected,
                  const CallArg &arg, CallFrame &frame) {
  std::optional<abi::DType> given = scalarDType(arg);
  if (given != expected.dtype)
    return Error::message(
        "call to '" + name + "': argument " + std::to_string(i) +
        " must be a " + expected.str() + " scalar, got " +
        (given ? std::string(abi::dtypeName(*given)) + " scalar"
               : std::string("a tensor")));
  std::visit(
      [&](const auto &v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (!std::is_same_v<V, abi::Tensor>)
          std::memcpy(&frame.scalars[i], &v, sizeof(V));
      },
      arg);
  frame.slots.push_back(&frame.scalars[i]);
  return Status::ok();
}

Status packTensor(const std::string &name, size_t i, const ValueSig &expected,
                  const CallArg &arg, CallFrame &frame) {
  const abi::Tensor *t = std::get_if<abi::Tensor>(&arg);
  if (!t)
    return Error::message("call to '" + name + "': argument " +
                          std::to_string(i) + " must be a tensor (" +
                          expected.str() + "), got a scalar");
  if (Status s = checkTensor(name, i, expected, *t); !s)
    return s;
  Descriptor &d = frame.descriptors.emplace_back(t->rank(), false);
  d.words[0] = d.words[1] = reinterpret_cast<std::int64_t>(t->rawData());
  for (int k = 0; k < t->rank(); ++k) {
    d.words[3 + k] = t->shape()[k];
    d.words[3 + t->rank() + k] = t->strides()[k];
  }
  d.address = d.words.data();
  frame.slots.push_back(&d.address);
  frame.callerAllocated.push_back(t->rawData());
  return Status::ok();
}

/// Checks every argument against the signature and lays it out in `frame`,
/// then makes room for the results.
Status packCall(const std::string &name, const FunctionSig &sig,
                const std::vector<CallArg> &args, CallFrame &frame) {
  if (args.size() != sig.args.size())
    return Error::message("call to '" + name +
                          "': " + std::to_string(args.size()) +
                          " arguments given, the function takes " +
                          std::to_string(sig.args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    const ValueSig &expected = sig.args[i];
    Status s = expected.isScalar()
                   ? packScalar(name, i, expected, args[i], frame)
                   : packTensor(name, i, expected, args[i], frame);
    if (!s)
      return s;
  }
  frame.firstResult = frame.descriptors.size();
  for (size_t k = 0; k < sig.results.size(); ++k) {
    if (sig.results[k].isScalar())
      frame.slots.push_back(&frame.scalars[args.size() + k]);
    else
      frame.slots.push_back(
          frame.descriptors.emplace_back(sig.results[k].rank(), true)
              .words.data());
  }
  return Status::ok();
}

/// A tensor view of a result descriptor, kept alive by `owner`.
abi::Tensor tensorResult(const Descriptor &d, abi::DType dtype,
                         std::shared_ptr<void> owner) {
  int rank = d.rank();
  std::vector<std::int64_t> shape(d.words.begin() + 3,
                                  d.words.begin() + 3 + rank);
  std::vector<std::int64_t> strides(d.words.begin() + 3 + rank,
                                    d.words.begin() + 3 + 2 * rank);
  char *aligned = reinterpret_cast<char *>(d.words[1]);
  void *data = aligned + d.words[2] * std::int64_t(abi::dtypeSize(dtype));
  return abi::Tensor::view(dtype, data, std::move(shape), std::move(strides),
                           std::move(owner));
}

/// Whether the descriptor the code wrote for result `k` is one of the
/// manifest's type: its rank (no word left unwritten, none written past
/// it) and its static sizes. Reading a result of another shape than the
/// caller was told would read out of its bounds.
Status checkResult(const std::string &fn, size_t k, const ValueSig &sig,
                   const Descriptor &d) {
  auto mismatch = [&](const std::string &what) {
    return Error::message("call to '" + fn + "': result " + std::to_string(k) +
                          " is not of the type its manifest says (" +
                          sig.str() + "): " + what +
                          "; the library and its manifest disagree");
  };
  size_t end = 3 + 2 * size_t(d.rank());
  for (size_t i = end; i < d.words.size(); ++i)
    if (d.words[i] != kUnwritten)
      return mismatch("the code wrote a descriptor of a higher rank");
  for (size_t i = 3; i < end; ++i)
    if (d.words[i] == kUnwritten)
      return mismatch("the code wrote a descriptor of a lower rank");
  std::vector<std::int64_t> shape(d.words.begin() + 3,
                                  d.words.begin() + 3 + d.rank());
  for (int i = 0; i < d.rank(); ++i)
    if (shape[i] < 0 || (sig.shape[i] >= 0 && shape[i] != sig.shape[i]))
      return mismatch("the code returned shape " + abi::shapeString(shape));
  return Status::ok();
}

/// The results the entry point wrote into `frame`, each buffer owned once
/// (abi::adoptResultBuffers) or borrowed from the argument it aliases.
Expected<std::vector<abi::Tensor>>
unpackResults(const FunctionSig &sig, size_t numArgs, const CallFrame &frame) {
  std::vector<void *> resultAllocated;
  for (size_t k = 0, t = frame.firstResult; k < sig.results.size(); ++k)
    resultAllocated.push_back(sig.results[k].isScalar()
                                  ? nullptr
                                  : frame.descriptors[t++].allocated());
  std::vector<std::shared_ptr<void>> owners =
      abi::adoptResultBuffers(resultAllocated, frame.callerAllocated);

  // Checked once the buffers have owners, which free them on an error.
  for (size_t k = 0, t = frame.firstResult; k < sig.results.size(); ++k)
    if (!sig.results[k].isScalar())
      if (Status s =
              checkResult(sig.name, k, sig.results[k], frame.descriptors[t++]);
          !s)
        return s.error();
  std::vector<abi::Tensor> results;
  for (size_t k = 0, t = frame.firstResult; k < sig.results.size(); ++k) {
    const ValueSig &r = sig.results[k];
    if (r.isScalar()) {
      abi::Tensor value = abi::Tensor::zeros(r.dtype, {});
      std::memcpy(value.rawData(), &frame.scalars[numArgs + k],
                  abi::dtypeSize(r.dtype));
      results.push_back(std::move(value));
    } else {
      results.push_back(
          tensorResult(frame.descriptors[t++], r.dtype, owners[k]));
    }
  }
  return results;
}
} // namespace

Expected<std::vector<abi::Tensor>>
LoadedModule::call(std::string_view function,
                   const std::vector<CallArg> &args) {
  const FunctionSig *sig = impl_->manifest.find(function);
  auto entry = impl_->entries.find(function);
  if (!sig || entry == impl_->entries.end())
    return Error::message("no function '" + std::string(function) +
                          "' in module '" + impl_->manifest.module + "'");
  CallFrame frame(args.size() + sig->results.size());
  if (Status s = packCall(std::string(function), *sig, args, frame); !s)
    return s.error();
  entry->second(frame.slots.data());
  // GPU code reports a failure through the runtime's status; the results
  // it returned then hold nothing and are freed here.
  bool gpuFailed =
      impl_->target.kind == Target::Kind::Cuda && impl_->cudaStatus() != 0;
  auto results = unpackResults(*sig, args.size(), frame);
  if (gpuFailed)
    return Error::message("call to '" + std::string(function) +
                          "' failed on the GPU: " + impl_->cudaLastError());
  return results;
}

} // namespace aot
