//===- Parse.cpp - reading text or bytecode modules -----------------------===//
#include "Frontend/BytecodeGuard.h"
#include "Frontend/Frontend.h"
#include "Frontend/Onnx/OnnxImport.h"

#include "aot/abi/detail/InputFile.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cerrno>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

namespace aot {

namespace {
std::unique_ptr<llvm::MemoryBuffer>
alignedCopy(llvm::StringRef bytes, llvm::StringRef name, std::string &ioError) {
  auto buffer = llvm::WritableMemoryBuffer::getNewUninitMemBuffer(
      bytes.size(), name, kBytecodeBufferAlignment);
  if (!buffer) {
    ioError = "out of memory for a copy of the source";
    return nullptr;
  }
  std::copy(bytes.begin(), bytes.end(), buffer->getBufferStart());
  return buffer;
}
} // namespace

/// The most bytes read from a pipe, a FIFO or standard input: a module
/// larger than this is given as a file. Without a bound, a stream that never
/// ends (`cat /dev/zero |`) would fill the memory.
static constexpr std::uint64_t kMaxStreamedSourceBytes = std::uint64_t(2) << 30;

static constexpr const char *kStreamLimitReason =
    "the most read from a stream: give the module as a file";

/// Standard input, read from its descriptor as it is (a pipe, a socket, a
/// file the shell redirected, a terminal the user types into), within the
/// bound unless it is a regular file. A device other than a terminal
/// (`< /dev/zero`) is refused before anything is read.
static std::unique_ptr<llvm::MemoryBuffer>
readStandardInput(std::string &ioError) {
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) {
    ioError = "standard input: cannot read it: " +
              std::generic_category().message(errno);
    return nullptr;
  }
  const char *kind = abi::detail::unreadableKind(st.st_mode);
  if (kind && !S_ISSOCK(st.st_mode) && !::isatty(STDIN_FILENO)) {
    ioError = std::string("standard input is ") + kind + ", not a module";
    return nullptr;
  }
  std::uint64_t limit =
      S_ISREG(st.st_mode) ? abi::detail::kNoLimit : kMaxStreamedSourceBytes;
  std::string bytes;
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      ioError = "standard input: cannot read it: " +
                std::generic_category().message(errno);
      return nullptr;
    }
    if (n == 0)
      break;
    bytes.append(chunk, size_t(n));
    if (bytes.size() > limit) {
      ioError = "standard input holds more than " + std::to_string(limit) +
                " bytes, " + kStreamLimitReason;
      return nullptr;
    }
  }
  return alignedCopy(bytes, "<stdin>", ioError);
}

/// A named source that is not a regular file (a pipe, a FIFO): read as a
/// stream, within the bound. Devices and directories are refused before
/// anything is read.
static std::unique_ptr<llvm::MemoryBuffer> readStream(const std::string &name,
                                                      std::string &ioError) {
  std::string bytes;
  try {
    bytes = abi::detail::InputFile(name).readAll(kMaxStreamedSourceBytes,
                                                 kStreamLimitReason);
  } catch (const abi::Error &e) {
    // The caller's error names the path.
    ioError = abi::detail::withoutPath(e, name);
    return nullptr;
  }
  return alignedCopy(bytes, name, ioError);
}

std::unique_ptr<llvm::MemoryBuffer> openSource(const Source &source,
                                               std::string &ioError) {
  // Aligned for bytecode, whose reader refuses a buffer less aligned than its
  // resources ask (MemoryBuffer's own copies are aligned to 16 bytes, and
  // standard input is read without regard to the alignment asked).
  if (!source.isFile())
    return alignedCopy(source.contents(), source.name(), ioError);
  if (source.name() == "-")
    return readStandardInput(ioError);
  struct stat st {};
  if (::stat(source.name().c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return readStream(source.name(), ioError);
  auto buffer =
      mlir::openInputFile(source.name(), kBytecodeBufferAlignment, &ioError);
  if (!buffer ||
      llvm::isAddrAligned(kBytecodeBufferAlignment, buffer->getBufferStart()))
    return buffer;
  return alignedCopy(buffer->getBuffer(), buffer->getBufferIdentifier(),
                     ioError);
}

namespace {

/// The deepest nesting of brackets accepted in MLIR text. The parser, the
/// verifier, the printer and many passes recurse once per level of nested
/// attributes, types or regions, and a module nested some thousands deep
/// overflows the stack; real programs nest a few dozen levels.
constexpr unsigned kMaxTextNesting = 256;

/// Where `text` first opens a bracket ('(', '[', '{' or '<') at a depth
/// over `limit`, as a line and a column (from 1); nullopt when nothing
/// nests that deep. Strings and comments do not count, nor does the '>' of
/// '->' and '>='.
std::optional<std::pair<unsigned, unsigned>>
tooDeeplyNested(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '"':
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n')
          ++line, lineStart = i + 1;
      break;
    case '/':
      if (i + 1 < text.size() && text[i + 1] == '/')
        while (i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return std::make_pair(line, unsigned(i - lineStart + 1));
      break;
    case '>':
      if ((i > 0 && text[i - 1] == '-') ||
          (i + 1 < text.size() && text[i + 1] == '='))
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

/// Parses and verifies text or bytecode (told apart by content).
mlir::OwningOpRef<mlir::ModuleOp>
parseAndVerify(std::unique_ptr<llvm::MemoryBuffer> buffer,
               mlir::MLIRContext &context) {
  // Shared so that bytecode resources referring into the buffer stay valid.
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  // Verification happens below, after parsing, so that a verifier failure
  // and a parse failure read the same way to the caller.
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!module || mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}
} // namespace

mlir::OwningOpRef<mlir::ModuleOp> parseModule(const Source &source,
                                              mlir::MLIRContext &context,
                                              std::string &ioError) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = openSource(source, ioError);
  if (!buffer)
    return nullptr;
  if (source.format() == SourceFormat::Onnx)
    return importOnnx(*buffer, source.name(), context, ioError);
  // MLIR 22's bytecode reader can crash or hang on corrupt input; text input
  // has no such history and is parsed directly.
  if (mlir::isBytecode(buffer->getMemBufferRef()))
    return parseUntrustedBytecode(*buffer, context, parseAndVerify, ioError);
  // MLIR text holds no NUL byte; a protobuf (an ONNX model by another
  // name) or any other binary file does.
  if (buffer->getBuffer().contains('\0')) {
    ioError = "is neither MLIR text nor MLIR bytecode (a binary file; an "
              "ONNX model needs a name ending in .onnx or --input-format=onnx)";
    return nullptr;
  }
  if (auto at = tooDeeplyNested(buffer->getBuffer(), kMaxTextNesting)) {
    mlir::emitError(mlir::FileLineColLoc::get(
        &context, buffer->getBufferIdentifier(), at->first, at->second))
        << "nested deeper than " << kMaxTextNesting
        << " levels of brackets; the compiler takes no deeper nesting";
    return nullptr;
  }
  return parseAndVerify(std::move(buffer), context);
}

} // namespace aot
