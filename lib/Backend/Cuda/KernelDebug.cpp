//===- KernelDebug.cpp - dumping and substituting kernels -----------------===//
#include "Backend/Cuda/KernelDebug.h"

#include "Support/DiagnosticCapture.h"
#include "Transforms/Attributes.h"
#include "aot/abi/KernelImage.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <regex>

namespace aot {

namespace {

/// Where `kernel`'s `.entry` line starts in `ptx`, or npos.
size_t entryStart(std::string_view ptx, std::string_view kernel) {
  size_t at = 0;
  while ((at = ptx.find(".entry ", at)) != std::string_view::npos) {
    size_t name = at + 7;
    size_t end = ptx.find_first_of("( \n", name);
    if (ptx.substr(name, end - name) == kernel) {
      size_t line = ptx.rfind('\n', at);
      return line == std::string_view::npos ? 0 : line + 1;
    }
    at = name;
  }
  return std::string_view::npos;
}

/// The end (after the closing brace's line) of the function whose
/// declaration starts at `start`.
size_t functionEnd(std::string_view ptx, size_t start) {
  size_t open = ptx.find('{', start);
  if (open == std::string_view::npos)
    return ptx.size();
  int depth = 0;
  for (size_t i = open; i < ptx.size(); ++i) {
    if (ptx[i] == '{')
      ++depth;
    else if (ptx[i] == '}' && --depth == 0) {
      size_t line = ptx.find('\n', i);
      return line == std::string_view::npos ? ptx.size() : line + 1;
    }
  }
  return ptx.size();
}

/// The byte size of one PTX parameter declaration (".param .u64 .ptr
/// .align 1 k_param_0", ".param .align 8 .b8 k_param_1[16]").
std::optional<unsigned> paramSize(std::string_view decl) {
  static const std::regex type(R"(\.([busf])(8|16|32|64)\b)");
  static const std::regex array(R"(\[(\d+)\]\s*$)");
  std::string text(decl);
  std::smatch m;
  if (!std::regex_search(text, m, type))
    return std::nullopt;
  unsigned size = unsigned(std::stoul(m[2])) / 8;
  std::smatch n;
  if (std::regex_search(text, n, array))
    size *= unsigned(std::stoul(n[1]));
  return size;
}

std::string sizesText(const std::vector<unsigned> &sizes) {
  std::string s = "(";
  for (size_t i = 0; i < sizes.size(); ++i)
    s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + ")";
}

Status writeText(const std::string &dir, const std::string &name,
                 std::string_view contents) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    os << contents;
    os.close();
    ec = os.error();
  }
  if (ec)
    return Error::at(std::string(path), 0, 0, "cannot write: " + ec.message());
  return Status::ok();
}

Status makeDirectory(const std::string &dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return Error::at(dir, 0, 0, "cannot create directory: " + ec.message());
  return Status::ok();
}

/// A launch dimension: its value when constant, null when computed.
llvm::json::Value dimension(mlir::Value v) {
  llvm::APInt value;
  if (v && mlir::matchPattern(v, mlir::m_ConstantInt(&value)))
    return value.getSExtValue();
  return nullptr;
}

/// What ptxas -v reports of one kernel: registers, spills, shared memory.
llvm::json::Object ptxasFigures(const std::string &report) {
  llvm::json::Object figures;
  auto number = [&](const char *pattern, const char *key) {
    std::smatch m;
    if (std::regex_search(report, m, std::regex(pattern)))
      figures[key] = std::stoll(m[1]);
  };
  number(R"(Used (\d+) registers)", "registers");
  number(R"((\d+) bytes stack frame)", "stack_frame_bytes");
  number(R"((\d+) bytes spill stores)", "spill_store_bytes");
  number(R"((\d+) bytes spill loads)", "spill_load_bytes");
  number(R"((\d+) bytes smem)", "static_shared_memory_bytes");
  return figures;
}

} // namespace

std::string locationText(mlir::Location loc) {
  Diagnostic d;
  fillLocation(loc, d);
  if (d.file.empty())
    return "";
  return d.line ? d.file + ":" + std::to_string(d.line) + ":" +
                      std::to_string(d.column)
                : d.file;
}

std::vector<std::string> ptxEntries(std::string_view ptx) {
  std::vector<std::string> names;
  size_t at = 0;
  while ((at = ptx.find(".entry ", at)) != std::string_view::npos) {
    size_t name = at + 7;
    size_t end = ptx.find_first_of("( \n", name);
    names.emplace_back(ptx.substr(name, end - name));
    at = name;
  }
  return names;
}

Expected<std::vector<unsigned>> ptxKernelParams(std::string_view ptx,
                                                std::string_view kernel) {
  size_t start = entryStart(ptx, kernel);
  if (start == std::string_view::npos)
    return Error::message("it defines no kernel '" + std::string(kernel) + "'");
  size_t open = ptx.find('(', start);
  size_t body = ptx.find('{', start);
  std::vector<unsigned> sizes;
  if (open == std::string_view::npos || open > body)
    return sizes; // no parameter list
  size_t close = ptx.find(')', open);
  std::string_view list = ptx.substr(open + 1, close - open - 1);
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view decl = list.substr(0, comma);
    if (decl.find(".param") != std::string_view::npos) {
      std::optional<unsigned> size = paramSize(decl);
      if (!size)
        return Error::message("cannot read the parameter '" +
                              std::string(decl) + "' of kernel '" +
                              std::string(kernel) + "'");
      sizes.push_back(*size);
    }
    if (comma == std::string_view::npos)
      break;
    list.remove_prefix(comma + 1);
  }
  return sizes;
}

Expected<std::vector<unsigned>> cubinKernelParams(std::string_view cubin,
                                                  std::string_view kernel) {
  // ELF64 little-endian, as ptxas writes it: the section headers, then the
  // .nv.info.KERNEL section, whose EIATTR_KPARAM_INFO records (format 4,
  // attribute 0x17) give each parameter's ordinal and size (bits 18-31).
  auto read = [&](size_t at, size_t n) -> std::optional<std::uint64_t> {
    if (at + n > cubin.size())
      return std::nullopt;
    std::uint64_t v = 0;
    std::memcpy(&v, cubin.data() + at, n);
    return v;
  };
  if (cubin.size() < 64 ||
      cubin.substr(0, 4) != "\x7f"
                            "ELF" ||
      cubin[4] != 2)
    return Error::message("it is not a 64-bit ELF file (a cubin)");
  auto shoff = read(0x28, 8), shentsize = read(0x3a, 2), shnum = read(0x3c, 2),
       shstrndx = read(0x3e, 2);
  if (!shoff || !shentsize || !shnum || !shstrndx || *shstrndx >= *shnum)
    return Error::message("its ELF section headers are damaged");
  auto section = [&](std::uint64_t i, std::uint64_t &offset,
                     std::uint64_t &size, std::uint64_t &name) {
    size_t at = *shoff + i * *shentsize;
    auto n = read(at, 4), o = read(at + 24, 8), s = read(at + 32, 8);
    if (!n || !o || !s || *o + *s > cubin.size())
      return false;
    name = *n, offset = *o, size = *s;
    return true;
  };
  std::uint64_t strOffset, strSize, unused;
  if (!section(*shstrndx, strOffset, strSize, unused))
    return Error::message("its ELF section names are damaged");
  const std::string wanted = ".nv.info." + std::string(kernel);
  for (std::uint64_t i = 0; i < *shnum; ++i) {
    std::uint64_t offset, size, name;
    if (!section(i, offset, size, name) || name >= strSize)
      continue;
    std::string_view names = cubin.substr(strOffset, strSize);
    if (names.substr(name, names.find('\0', name) - name) != wanted)
      continue;
    std::vector<std::pair<unsigned, unsigned>> params; // ordinal, size
    std::string_view info = cubin.substr(offset, size);
    for (size_t at = 0; at + 4 <= info.size();) {
      unsigned format = std::uint8_t(info[at]),
               attribute = std::uint8_t(info[at + 1]);
      if (format != 4) {
        at += 4;
        continue;
      }
      unsigned length = std::uint8_t(info[at + 2]) |
                        unsigned(std::uint8_t(info[at + 3])) << 8;
      if (attribute == 0x17 && length >= 12 && at + 4 + 12 <= info.size()) {
        std::uint16_t ordinal;
        std::uint32_t flags;
        std::memcpy(&ordinal, info.data() + at + 8, 2);
        std::memcpy(&flags, info.data() + at + 12, 4);
        params.emplace_back(ordinal, flags >> 18);
      }
      at += 4 + length;
    }
    std::sort(params.begin(), params.end());
    std::vector<unsigned> sizes;
    for (auto [ordinal, bytes] : params)
      sizes.push_back(bytes);
    return sizes;
  }
  return Error::message("it defines no kernel '" + std::string(kernel) + "'");
}

std::string ptxOfKernel(std::string_view ptx, std::string_view kernel) {
  std::string out;
  size_t at = 0;
  for (const std::string &name : ptxEntries(ptx)) {
    size_t start = entryStart(ptx, name);
    size_t end = functionEnd(ptx, start);
    // The "// .globl NAME" comment LLVM writes before each kernel goes
    // with it.
    size_t previous = start > 1 ? ptx.rfind('\n', start - 2) : 0;
    previous = previous == std::string_view::npos ? 0 : previous + 1;
    std::string_view line = ptx.substr(previous, start - previous);
    if (line.find(".globl") != std::string_view::npos &&
        line.find(name) != std::string_view::npos && previous >= at)
      start = previous;
    out += ptx.substr(at, start - at);
    if (name == kernel)
      out += ptx.substr(start, end - start);
    at = end;
  }
  out += ptx.substr(at);
  return out;
}

Status writeOutlinedKernels(mlir::ModuleOp module, const std::string &dir) {
  if (Status s = makeDirectory(dir); !s)
    return s;
  Status status = Status::ok();
  module.walk([&](mlir::gpu::GPUFuncOp fn) {
    if (!fn.isKernel())
      return mlir::WalkResult::advance();
    std::string text;
    llvm::raw_string_ostream os(text);
    fn->print(os, mlir::OpPrintingFlags().enableDebugInfo(
                      /*enable=*/true, /*prettyForm=*/false));
    status = writeText(dir, fn.getName().str() + ".mlir", text + "\n");
    return status ? mlir::WalkResult::advance() : mlir::WalkResult::interrupt();
  });
  return status;
}

Status writeKernelDump(mlir::ModuleOp module, const std::string &dir,
                       const std::string &ptx, const KernelIr &ir,
                       const Target &target, const CudaToolkit &toolkit,
                       bool lineInfo) {
  if (Status s = makeDirectory(dir); !s)
    return s;
  std::map<std::string, llvm::json::Array> launches;
  module.walk([&](mlir::gpu::LaunchFuncOp launch) {
    llvm::json::Object l{
        {"grid", llvm::json::Array{dimension(launch.getGridSizeX()),
                                   dimension(launch.getGridSizeY()),
                                   dimension(launch.getGridSizeZ())}},
        {"block", llvm::json::Array{dimension(launch.getBlockSizeX()),
                                    dimension(launch.getBlockSizeY()),
                                    dimension(launch.getBlockSizeZ())}},
        {"dynamic_shared_memory_bytes",
         launch.getDynamicSharedMemorySize()
             ? dimension(launch.getDynamicSharedMemorySize())
             : llvm::json::Value(0)},
        {"location", locationText(launch.getLoc())},
        {"function", launch->getParentOfType<mlir::FunctionOpInterface>()
                         ? launch->getParentOfType<mlir::FunctionOpInterface>()
                               .getName()
                               .str()
                         : std::string()}};
    launches[launch.getKernelName().str()].push_back(std::move(l));
  });
  // The names kernels had in their source, where PTX took another.
  std::map<std::string, std::string> sourceNames;
  // (gpu.func, or llvm.func once the kernels are lowered).
  module.walk([&](mlir::FunctionOpInterface fn) {
    if (auto source =
            fn->getAttrOfType<mlir::StringAttr>(kKernelSourceNameAttr))
      sourceNames[fn.getName().str()] = source.str();
  });
  for (const std::string &name : ptxEntries(ptx)) {
    std::string kernelPtx = ptxOfKernel(ptx, name);
    if (auto it = ir.initial.find(name); it != ir.initial.end())
      if (Status s = writeText(dir, name + ".ll", it->second); !s)
        return s;
    if (auto it = ir.optimized.find(name); it != ir.optimized.end())
      if (Status s = writeText(dir, name + ".opt.ll", it->second); !s)
        return s;
    if (Status s = writeText(dir, name + ".ptx", kernelPtx); !s)
      return s;
    auto params = ptxKernelParams(ptx, name);
    llvm::json::Object info{
        {"kernel", name},
        {"target", target.str()},
        {"parameter_bytes", params
                                ? llvm::json::Value(llvm::json::Array(*params))
                                : llvm::json::Value(nullptr)},
        {"launches", std::move(launches[name])}};
    if (auto it = sourceNames.find(name); it != sourceNames.end())
      info["source_name"] = it->second;
    if (!toolkit.ptxas.empty()) {
      std::string report;
      auto cubin =
          assemblePtx(kernelPtx, target, toolkit.ptxas, lineInfo, &report);
      if (!cubin)
        return cubin.error();
      if (Status s = writeText(dir, name + ".cubin", *cubin); !s)
        return s;
      info["ptxas"] = ptxasFigures(report);
    } else {
      info["ptxas"] = nullptr;
    }
    std::string json;
    llvm::raw_string_ostream os(json);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(info))) << "\n";
    if (Status s = writeText(dir, name + ".json", json); !s)
      return s;
  }
  return Status::ok();
}

Status substituteKernels(
    mlir::ModuleOp module, const std::string &ptx,
    const std::vector<std::pair<std::string, std::string>> &substitutions,
    std::vector<Diagnostic> &notes) {
  const std::vector<std::string> kernels = ptxEntries(ptx);
  for (const auto &[name, file] : substitutions) {
    if (std::find(kernels.begin(), kernels.end(), name) == kernels.end()) {
      std::string known;
      for (const std::string &k : kernels)
        known += (known.empty() ? "" : ", ") + k;
      return Error::message(
          "--substitute-kernel: there is no kernel '" + name +
          "' (the kernels are: " + (known.empty() ? "none" : known) + ")");
    }
    llvm::StringRef extension = llvm::sys::path::extension(file);
    if (extension != ".ptx" && extension != ".cubin")
      return Error::at(file, 0, 0,
                       "--substitute-kernel: the file must be .ptx or "
                       ".cubin");
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return Error::at(file, 0, 0,
                       "--substitute-kernel: cannot read: " +
                           buffer.getError().message());
    std::string contents((*buffer)->getBuffer());
    const bool isPtx = extension == ".ptx";
    auto theirs = isPtx ? ptxKernelParams(contents, name)
                        : cubinKernelParams(contents, name);
    if (!theirs)
      return Error::at(file, 0, 0,
                       "--substitute-kernel=" + name + ": " +
                           theirs.error().diagnostics().front().message);
    auto ours = ptxKernelParams(ptx, name);
    if (!ours)
      return ours.error();
    if (*theirs != *ours)
      return Error::at(file, 0, 0,
                       "--substitute-kernel=" + name +
                           ": its kernel takes parameters of " +
                           sizesText(*theirs) + " bytes, the compiled one " +
                           sizesText(*ours) + ": not the same signature");

    // A module of its own for the kernel, launched in place of the
    // compiled one.
    if (isPtx)
      contents.push_back('\0');
    std::string blob = abi::packKernelImages(
        {{isPtx ? abi::KernelImageKind::Ptx : abi::KernelImageKind::Cubin,
          contents}});
    mlir::MLIRContext *ctx = module.getContext();
    std::string binaryName = "substituted$" + name;
    mlir::Attribute target;
    module.walk([&](mlir::gpu::GPUModuleOp m) {
      if (m.getTargetsAttr() && !m.getTargetsAttr().empty())
        target = m.getTargetsAttr()[0];
    });
    if (!target)
      return Error::message("internal error: the kernels have no target");
    mlir::OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToStart(module.getBody());
    auto object = mlir::gpu::ObjectAttr::get(
        ctx, target, mlir::gpu::CompilationTarget::Binary,
        mlir::StringAttr::get(ctx, blob), nullptr, nullptr);
    mlir::gpu::BinaryOp::create(b, module.getLoc(), binaryName, nullptr,
                                b.getArrayAttr({object}));
    auto symbol = mlir::SymbolRefAttr::get(
        ctx, binaryName, {mlir::FlatSymbolRefAttr::get(ctx, name)});
    int launches = 0;
    module.walk([&](mlir::gpu::LaunchFuncOp launch) {
      if (launch.getKernelName() == name) {
        launch.setKernelAttr(symbol);
        ++launches;
      }
    });
    notes.push_back({Severity::Note, file, 0, 0,
                     "kernel '" + name + "' is replaced by this " +
                         (isPtx ? std::string("PTX") : std::string("cubin")) +
                         " (" + std::to_string(launches) + " launch" +
                         (launches == 1 ? "" : "es") + ")"});
  }
  return Status::ok();
}

void lineDirectivesOnly(mlir::Operation *gpuModule) {
  mlir::AttrTypeReplacer replacer;
  replacer.addReplacement([](mlir::LLVM::DICompileUnitAttr cu) {
    return mlir::LLVM::DICompileUnitAttr::get(
        cu.getContext(), cu.getId(), cu.getSourceLanguage(), cu.getFile(),
        cu.getProducer(), cu.getIsOptimized(),
        mlir::LLVM::DIEmissionKind::DebugDirectivesOnly,
        cu.getNameTableKind(), cu.getSplitDebugFilename());
  });
  replacer.recursivelyReplaceElementsIn(gpuModule, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}

} // namespace aot
