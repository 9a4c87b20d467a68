//===- HeaderWriter.cpp - typed C++ wrappers for compiled functions -------===//
//
// The generated header declares each `_mlir_ciface_NAME` with descriptor
// types of the exact rank and element type, and wraps it in an inline
// function that checks static dims (dtype and rank are checked by the C++
// type system) and hands result buffers to owning values exactly once.
//
//===----------------------------------------------------------------------===//
#include "Artifact/Writers.h"

#include "aot/CppNames.h"

#include <cctype>
#include <set>
#include <sstream>

namespace aot {

static std::string elementType(abi::DType t) {
  return std::string(cppElementType(t));
}

static std::string memrefType(const ValueSig &v) {
  return "aot::abi::MemRef<" + elementType(v.dtype) + ", " +
         std::to_string(v.rank()) + ">";
}

/// What the wrapper returns for one result.
static std::string resultType(const ValueSig &v) {
  if (v.isScalar())
    return elementType(v.dtype);
  return "aot::abi::Owned<" + elementType(v.dtype) + ", " +
         std::to_string(v.rank()) + ">";
}

static std::string signatureComment(const FunctionSig &f) {
  std::string s = f.name + "(";
  for (size_t i = 0; i < f.args.size(); ++i)
    s += (i ? ", " : "") + f.args[i].str();
  s += ") -> (";
  for (size_t i = 0; i < f.results.size(); ++i)
    s += (i ? ", " : "") + f.results[i].str();
  return s + ")";
}

namespace {

/// How one function's results come back from its C entry point.
struct ResultPassing {
  explicit ResultPassing(const FunctionSig &f)
      : count(f.results.size()), byValue(count == 1 && f.results[0].isScalar()),
        outPointer(count > 0 && !byValue) {}
  size_t count;
  /// A single scalar result is the entry point's return value.
  bool byValue;
  /// Otherwise the results are written through a pointer to a struct.
  bool outPointer;
};

/// Declares the C entry point in `detail`, with a result struct laid out as
/// LLVM lays out the struct of results (natural alignment, like C).
void writeEntryPoint(std::ostringstream &os, const FunctionSig &f,
                     const ResultPassing &passing, const std::string &results,
                     const std::string &entry) {
  os << "namespace detail {\n";
  if (passing.outPointer) {
    os << "struct " << results << " {\n";
    for (size_t k = 0; k < passing.count; ++k)
      os << "  "
         << (f.results[k].isScalar() ? elementType(f.results[k].dtype)
                                     : memrefType(f.results[k]))
         << " r" << k << ";\n";
    os << "};\n";
  }
  os << "extern \"C\" "
     << (passing.byValue ? elementType(f.results[0].dtype)
                         : std::string("void"))
     << " " << entry << "(";
  bool first = true;
  if (passing.outPointer) {
    os << results << " *";
    first = false;
  }
  for (const ValueSig &a : f.args) {
    os << (first ? "" : ", ")
       << (a.isScalar() ? elementType(a.dtype) : memrefType(a) + " *");
    first = false;
  }
  os << ") __asm__(\"" << f.symbol << "\");\n} // namespace detail\n\n";
}

/// What the wrapper returns: nothing, one value or a tuple of them.
std::string wrapperReturnType(const FunctionSig &f) {
  if (f.results.empty())
    return "void";
  if (f.results.size() == 1)
    return resultType(f.results[0]);
  std::string ret = "std::tuple<";
  for (size_t k = 0; k < f.results.size(); ++k)
    ret += (k ? ", " : "") + resultType(f.results[k]);
  return ret + ">";
}

/// The wrapper's doc comment, its signature and the checks of the static
/// dims of its arguments (dtype and rank are in the argument types).
void writeWrapperHead(std::ostringstream &os, const FunctionSig &f,
                      const std::string &wrapper, const std::string &ret,
                      bool gpu) {
  os << "/// " << signatureComment(f) << "\n";
  os << "/// Throws aot::abi::Error if a static dim of an argument differs"
     << (gpu ? " or the GPU\n/// side of the call fails (aotCudaLastError()'s "
               "message).\n"
             : ".\n");
  os << "inline " << ret << " " << wrapper << "(";
  for (size_t i = 0; i < f.args.size(); ++i)
    os << (i ? ", " : "")
       << (f.args[i].isScalar() ? elementType(f.args[i].dtype)
                                : memrefType(f.args[i]))
       << " arg" << i;
  os << ") {\n";
  for (size_t i = 0; i < f.args.size(); ++i) {
    const ValueSig &a = f.args[i];
    for (int d = 0; d < a.rank(); ++d) {
      if (a.shape[d] < 0)
        continue;
      os << "  if (arg" << i << ".sizes[" << d << "] != " << a.shape[d] << ")\n"
         << "    throw aot::abi::Error(\"" << wrapper << ": argument " << i
         << " dim " << d << " is \" + std::to_string(arg" << i << ".sizes[" << d
         << "]) + \", expected " << a.shape[d] << " (" << a.str() << ")\");\n";
    }
  }
}

/// The call of the entry point: the result struct first, then each
/// argument, tensors by the address of their descriptor.
std::string entryCall(const FunctionSig &f, const ResultPassing &passing,
                      const std::string &entry) {
  std::string call = "detail::" + entry + "(";
  bool first = true;
  if (passing.outPointer) {
    call += "&results";
    first = false;
  }
  for (size_t i = 0; i < f.args.size(); ++i) {
    call += std::string(first ? "" : ", ") + (f.args[i].isScalar() ? "" : "&") +
            "arg" + std::to_string(i);
    first = false;
  }
  return call + ")";
}

/// For GPU code: the statement that turns a failure the runtime latched
/// during the call into an exception (after the results have owners, which
/// free them as it unwinds). Empty for CPU code.
std::string statusCheck(bool gpu, const std::string &wrapper) {
  if (!gpu)
    return "";
  return "  if (aotCudaStatus() != 0)\n"
         "    throw aot::abi::Error(std::string(\"" +
         wrapper + ": \") + aotCudaLastError());\n";
}

/// The arguments of aot::abi::adoptResultBuffers for a call of `f`: the
/// results' `allocated` pointers, then the caller's.
std::string adoptLists(const FunctionSig &f) {
  std::string out = "{";
  for (size_t k = 0; k < f.results.size(); ++k)
    out += std::string(k ? ", " : "") +
           (f.results[k].isScalar()
                ? "nullptr"
                : "results.r" + std::to_string(k) + ".allocated");
  out += "}, {";
  bool first = true;
  for (size_t i = 0; i < f.args.size(); ++i) {
    if (f.args[i].isScalar())
      continue;
    out += std::string(first ? "" : ", ") + "arg" + std::to_string(i) +
           ".allocated";
    first = false;
  }
  return out + "}";
}

/// Calls into the result struct and hands each result buffer to an owner
/// exactly once, leaving alone those that alias an argument.
void writeOwnedResults(std::ostringstream &os, const FunctionSig &f,
                       const std::string &results, const std::string &call,
                       const std::string &ret, const std::string &check) {
  const size_t nres = f.results.size();
  os << "  detail::" << results << " results{};\n";
  os << "  " << call << ";\n";
  os << "  auto owners = aot::abi::adoptResultBuffers(" << adoptLists(f);
  os << ");\n" << check;
  auto value = [&](size_t k) {
    return f.results[k].isScalar()
               ? "results.r" + std::to_string(k)
               : resultType(f.results[k]) + "(results.r" + std::to_string(k) +
                     ", owners[" + std::to_string(k) + "])";
  };
  if (nres == 1) {
    os << "  return " << value(0) << ";\n}\n\n";
    return;
  }
  os << "  return " << ret << "(";
  for (size_t k = 0; k < nres; ++k)
    os << (k ? ",\n      " : "") << value(k);
  os << ");\n}\n\n";
}

/// Declares the device entry point of function number `index` in `detail`
/// (beside its host entry point, whose result struct it shares): the same
/// arguments, then the stream.
void writeDeviceEntryPoint(std::ostringstream &os, const FunctionSig &f,
                           size_t index, const std::string &entry) {
  const ResultPassing passing(f);
  os << "namespace detail {\nextern \"C\" "
     << (passing.byValue ? elementType(f.results[0].dtype)
                         : std::string("void"))
     << " " << entry << "(";
  std::string params =
      passing.outPointer ? "results_" + std::to_string(index) + " *" : "";
  for (const ValueSig &a : f.args)
    params += std::string(params.empty() ? "" : ", ") +
              (a.isScalar() ? elementType(a.dtype) : memrefType(a) + " *");
  os << params << (params.empty() ? "" : ", ") << "void *stream) __asm__(\""
     << f.deviceSymbol << "\");\n} // namespace detail\n\n";
}

/// The name in `detail` of the C entry point of function number `index`
/// (`device`: its device entry point), bound to the real symbol by an asm
/// label, so any MLIR symbol name works. An extern "C" name is one entity
/// whatever namespace declares it: the module's name keeps the entry points
/// of two headers included together apart.
std::string entryName(const std::string &module, size_t index, bool device) {
  return module + (device ? "_device_entry_" : "_entry_") +
         std::to_string(index);
}

/// Writes function number `index` of `module` as the wrapper `wrapper`, its
/// result struct with an index-based name in `detail`.
void writeFunction(std::ostringstream &os, const std::string &module,
                   const FunctionSig &f, size_t index,
                   const std::string &wrapper, bool gpu) {
  const std::string results = "results_" + std::to_string(index);
  const std::string entry = entryName(module, index, /*device=*/false);
  const ResultPassing passing(f);
  writeEntryPoint(os, f, passing, results, entry);
  if (!f.deviceSymbol.empty())
    writeDeviceEntryPoint(os, f, index, entryName(module, index, true));
  const std::string ret = wrapperReturnType(f);
  writeWrapperHead(os, f, wrapper, ret, gpu);
  const std::string call = entryCall(f, passing, entry);
  const std::string check = statusCheck(gpu, wrapper);
  if (passing.count == 0)
    os << "  " << call << ";\n" << check << "}\n\n";
  else if (passing.byValue && check.empty())
    os << "  return " << call << ";\n}\n\n";
  else if (passing.byValue)
    os << "  const " << ret << " result = " << call << ";\n"
       << check << "  return result;\n}\n\n";
  else
    writeOwnedResults(os, f, results, call, ret, check);
}

/// The wrapper of function number `index`'s device entry point, in namespace
/// `device`: it returns the result struct (or the scalar) as the C entry
/// point fills it; on failure it frees what the call allocated and throws.
void writeDeviceFunction(std::ostringstream &os, const std::string &module,
                         const FunctionSig &f, size_t index,
                         const std::string &wrapper) {
  const std::string results = "results_" + std::to_string(index);
  const std::string entry = entryName(module, index, /*device=*/true);
  const ResultPassing passing(f);
  const std::string ret = passing.outPointer ? "detail::" + results
                          : passing.byValue  ? elementType(f.results[0].dtype)
                                             : std::string("void");
  os << "/// " << signatureComment(f) << " on device memory: the descriptors\n"
     << "/// hold device addresses; copies and kernels run on `stream` (a\n"
     << "/// CUstream; nullptr: the runtime's own) and have finished when it\n"
     << "/// returns. A result that is not an argument's buffer or an earlier\n"
     << "/// result's is new: free it with aotCudaFree or cuMemFree. Throws\n"
     << "/// aot::abi::Error if the GPU side fails (nothing is left "
        "allocated).\n"
     << "inline " << ret << " " << wrapper << "(";
  for (size_t i = 0; i < f.args.size(); ++i)
    os << (f.args[i].isScalar() ? elementType(f.args[i].dtype)
                                : memrefType(f.args[i]))
       << " arg" << i << ", ";
  os << "void *stream) {\n";
  std::string call = "detail::" + entry + "(";
  std::string callArgs = passing.outPointer ? "&results" : "";
  for (size_t i = 0; i < f.args.size(); ++i)
    callArgs += std::string(callArgs.empty() ? "" : ", ") +
                (f.args[i].isScalar() ? "" : "&") + "arg" + std::to_string(i);
  call += callArgs + (callArgs.empty() ? "" : ", ") + "stream)";
  const std::string fail = "    throw aot::abi::Error(std::string(\"" +
                           wrapper + " on the device: \") + " +
                           "aotCudaLastError());\n";
  if (passing.outPointer) {
    os << "  detail::" << results << " results{};\n  " << call << ";\n"
       << "  if (aotCudaStatus() != 0) {\n"
       << "    (void)aot::abi::adoptResultBuffers(" << adoptLists(f)
       << ", &aotCudaFree);\n"
       << fail << "  }\n  return results;\n}\n\n";
  } else if (passing.byValue) {
    os << "  const " << ret << " result = " << call << ";\n"
       << "  if (aotCudaStatus() != 0)\n"
       << fail << "  return result;\n}\n\n";
  } else {
    os << "  " << call << ";\n  if (aotCudaStatus() != 0)\n" << fail << "}\n\n";
  }
}

/// The load function of external weights and a wrapper that returns its
/// message as a string.
void writeWeightsLoader(std::ostringstream &os, const ExternalWeights &w) {
  os << "/// The module keeps " << w.tensors.size()
     << " constant(s) in the safetensors file " << w.file << ".\n"
     << "/// The first call of any function maps that file (or the file of\n"
     << "/// that name beside the binary holding this code), and aborts if it\n"
     << "/// cannot. aot_load_weights(path) maps `path` (empty: that default)\n"
     << "/// now instead and returns \"\" or why it refused the file (a\n"
     << "/// tensor missing or not the compiled one). Call it before any call\n"
     << "/// of the module's functions is running.\n"
     << "extern \"C\" std::int32_t " << w.load
     << "(const char *path, char *error, std::uint64_t error_size);\n"
     << "inline std::string aot_load_weights(const std::string &path = {}) "
        "{\n"
     << "  char error[1024] = {};\n"
     << "  return " << w.load
     << "(path.c_str(), error, sizeof error) == 0 ? std::string()\n"
     << "                                          : std::string(error);\n"
     << "}\n\n";
}

} // namespace

std::string generateHeader(const Manifest &manifest) {
  std::ostringstream os;
  os << "// " << manifest.module
     << ".h - typed entry points of the compiled module '" << manifest.module
     << "'.\n"
     << "// Generated by aot-compile for target " << manifest.target
     << "; do not edit.\n";
  os << "// Link with the object code";
  for (const std::string &lib : manifest.link)
    os << (lib == "aot_runtime"        ? ", MlirAot::runtime"
           : lib == "aot_cuda_runtime" ? ", MlirAot::cuda_runtime"
                                       : ", -l" + lib);
  os << ".\n#pragma once\n\n"
     << "#include \"aot/abi/Error.h\"\n"
     << "#include \"aot/abi/MemRef.h\"\n"
     << "#include \"aot/abi/Owned.h\"\n"
     << "#include \"aot/abi/Ownership.h\"\n";
  const bool gpu = manifest.target.rfind("cuda:", 0) == 0;
  if (gpu)
    os << "#include \"aot/abi/CudaStatus.h\"\n";
  os << "\n"
     << "#include <cstdint>\n#include <string>\n#include <tuple>\n\n";
  os << "namespace aot_compiled::" << manifest.module << " {\n\n";
  std::vector<std::string> wrappers = headerWrapperNames(manifest);
  for (size_t i = 0; i < manifest.functions.size(); ++i)
    writeFunction(os, manifest.module, manifest.functions[i], i, wrappers[i],
                  gpu);
  if (!manifest.weights.empty())
    writeWeightsLoader(os, manifest.weights);
  bool anyDevice = false;
  for (const FunctionSig &f : manifest.functions)
    anyDevice |= !f.deviceSymbol.empty();
  if (anyDevice) {
    os << "/// The entry points on device memory (the manifest's \"device\"\n"
       << "/// entry points), for callers that keep their tensors on the GPU.\n"
       << "namespace device {\n\n";
    for (size_t i = 0; i < manifest.functions.size(); ++i)
      if (!manifest.functions[i].deviceSymbol.empty())
        writeDeviceFunction(os, manifest.module, manifest.functions[i], i,
                            wrappers[i]);
    os << "} // namespace device\n\n";
  }
  os << "} // namespace aot_compiled::" << manifest.module << "\n";
  return os.str();
}

} // namespace aot
