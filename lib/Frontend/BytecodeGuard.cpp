//===- BytecodeGuard.cpp - reading untrusted bytecode in a child process --===//
//
// fork() copies only the calling thread: a lock another thread of the host
// held at that moment stays locked in the child. So the child does little:
// the context it parses into is built before the fork, and after it the child
// only parses, verifies, writes its answer to a pipe and leaves with _exit.
// The locks it may still take (LLVM's error-handler mutexes, MLIR's registry
// of fallback type ids) are held rarely and briefly; malloc's are made
// fork-safe by glibc. Were one stuck, the child would block until the time
// limit and the input would be refused as if the reader had hung: a wrong
// answer, never a crash of the host.
//
// When no child can be started (pipe() or fork() fails: too many processes or
// open files, no memory), the input is refused with that reason rather than
// read in-process. Reading it unguarded would make "corrupt bytecode cannot
// take the host down" depend on the host's load, and a system out of
// processes or memory would most likely fail the compile anyway.
//
// The child's answer, framed as one kind byte, a 64-bit length and the body:
//   'P' the module, written by MLIR's bytecode writer;
//   'R' the diagnostics of a clean parse or verification failure;
//   'F' the reason of an LLVM fatal error; 'M' an allocation failed.
//
//===----------------------------------------------------------------------===//
#include "Frontend/BytecodeGuard.h"

#include "Support/DiagnosticCapture.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/Errno.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace aot {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

enum Answer : char {
  kParsed = 'P',
  kRejected = 'R',
  kFatal = 'F',
  kOutOfMemory = 'M',
};

/// The kind byte and the body's length.
constexpr std::size_t kFrameHeaderSize = 1 + 8;

/// What the child may allocate beyond what it inherits: far more than a parse
/// and a rewrite need (each holds a resource blob at most once), and little
/// enough that a reader allocating without end fails before it troubles the
/// machine.
constexpr std::size_t kBaseMemoryBudget = std::size_t(2) << 30;
constexpr std::size_t kMemoryBudgetPerInputByte = 4;

/// Every refusal ends with what it means for the user.
constexpr const char *kCorrupt =
    "; the file is corrupt or was written by an incompatible MLIR";

std::size_t memoryBudget(std::size_t inputSize) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  if (inputSize > (max - kBaseMemoryBudget) / kMemoryBudgetPerInputByte)
    return max;
  return kBaseMemoryBudget + kMemoryBudgetPerInputByte * inputSize;
}

/// Closes the descriptor it owns.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  ~FileDescriptor() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0)
      ::close(fd_); // Not retried on EINTR: Linux has closed it regardless.
    fd_ = -1;
  }

private:
  int fd_;
};

//===--- Diagnostics across the pipe --------------------------------------===//

/// A diagnostic as the child saw it, flattened to what aot::Diagnostic keeps.
struct SentDiagnostic {
  Diagnostic diagnostic;
  bool isNote = false; // attached to the last diagnostic that is not
};

void appendInt(std::string &out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(char(value >> (8 * i)));
}

void appendString(std::string &out, const std::string &text) {
  appendInt(out, text.size(), 4);
  out += text;
}

std::string encode(const std::vector<SentDiagnostic> &diagnostics) {
  std::string out;
  for (const SentDiagnostic &sent : diagnostics) {
    const Diagnostic &d = sent.diagnostic;
    appendInt(out, std::uint64_t(d.severity), 1);
    appendInt(out, sent.isNote, 1);
    appendInt(out, d.line, 4);
    appendInt(out, d.column, 4);
    appendString(out, d.file);
    appendString(out, d.message);
  }
  return out;
}

/// Reads what encode() wrote; fails on anything else.
class Decoder {
public:
  explicit Decoder(llvm::StringRef bytes) : bytes_(bytes) {}
  bool done() const { return bytes_.empty(); }
  bool integer(std::uint64_t &value, int bytes) {
    if (bytes_.size() < std::size_t(bytes))
      return false;
    value = 0;
    for (int i = 0; i < bytes; ++i)
      value |= std::uint64_t(std::uint8_t(bytes_[i])) << (8 * i);
    bytes_ = bytes_.drop_front(bytes);
    return true;
  }
  bool string(std::string &text) {
    std::uint64_t size;
    if (!integer(size, 4) || bytes_.size() < size)
      return false;
    text = bytes_.take_front(size).str();
    bytes_ = bytes_.drop_front(size);
    return true;
  }

private:
  llvm::StringRef bytes_;
};

std::optional<std::vector<SentDiagnostic>> decode(llvm::StringRef bytes) {
  std::vector<SentDiagnostic> out;
  Decoder in(bytes);
  while (!in.done()) {
    SentDiagnostic sent;
    std::uint64_t severity, isNote, line, column;
    if (!in.integer(severity, 1) || !in.integer(isNote, 1) ||
        !in.integer(line, 4) || !in.integer(column, 4) ||
        !in.string(sent.diagnostic.file) ||
        !in.string(sent.diagnostic.message) ||
        severity > std::uint64_t(Severity::Remark))
      return std::nullopt;
    sent.diagnostic.severity = Severity(severity);
    sent.diagnostic.line = unsigned(line);
    sent.diagnostic.column = unsigned(column);
    sent.isNote = isNote != 0;
    out.push_back(std::move(sent));
  }
  return out;
}

Severity severityOf(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return Severity::Error;
  case mlir::DiagnosticSeverity::Warning:
    return Severity::Warning;
  case mlir::DiagnosticSeverity::Note:
    return Severity::Note;
  case mlir::DiagnosticSeverity::Remark:
    return Severity::Remark;
  }
  return Severity::Error;
}

mlir::Location locationOf(const Diagnostic &d, mlir::MLIRContext &context) {
  if (d.file.empty())
    return mlir::UnknownLoc::get(&context);
  return mlir::FileLineColLoc::get(&context, d.file, d.line, d.column);
}

/// Emits in `context` what the child reported, in order, notes attached to
/// the diagnostic before them, so the caller's handlers see what they would
/// have seen had the parse run here.
void reemit(const std::vector<SentDiagnostic> &diagnostics,
            mlir::MLIRContext &context) {
  std::optional<mlir::InFlightDiagnostic> last;
  for (const SentDiagnostic &sent : diagnostics) {
    const Diagnostic &d = sent.diagnostic;
    mlir::Location loc = locationOf(d, context);
    if (sent.isNote && last) {
      last->attachNote(loc) << d.message;
      continue;
    }
    last.reset(); // reports the previous one
    switch (d.severity) {
    case Severity::Error:
    case Severity::Note: // a note without a diagnostic before it
      last.emplace(mlir::emitError(loc));
      break;
    case Severity::Warning:
      last.emplace(mlir::emitWarning(loc));
      break;
    case Severity::Remark:
      last.emplace(mlir::emitRemark(loc));
      break;
    }
    *last << d.message;
  }
}

//===--- In the child -----------------------------------------------------===//

/// The child's end of the pipe, for the handlers below, which LLVM and the
/// C++ runtime call without a pointer of ours.
int childAnswerFd = -1;

void writeAll(int fd, const char *data, std::size_t size) {
  while (size) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    data += n;
    size -= std::size_t(n);
  }
}

/// Answers and ends the child. Allocates nothing (it also answers a failed
/// allocation). _exit, not exit: the host's atexit handlers and static
/// destructors (a fuzzer's, stdio buffers the host has yet to flush) belong
/// to the host and must run once, there.
[[noreturn]] void finishChild(Answer answer, const char *body = "",
                              std::size_t size = 0) {
  char header[kFrameHeaderSize];
  header[0] = answer;
  for (int i = 0; i < 8; ++i)
    header[1 + i] = char(std::uint64_t(size) >> (8 * i));
  writeAll(childAnswerFd, header, sizeof header);
  writeAll(childAnswerFd, body, size);
  ::_exit(0);
}

void onFatalError(void *, const char *reason, bool) {
  finishChild(kFatal, reason, std::strlen(reason));
}
void onBadAlloc(void *, const char *, bool) { finishChild(kOutOfMemory); }
void onNewFailure() { finishChild(kOutOfMemory); }

/// Caps the child's address space at what it inherited plus the budget, so a
/// runaway allocation fails in the child instead of exhausting the machine.
/// The inherited size counts because it may be huge and mostly unbacked (a
/// sanitizer's shadow memory).
void limitMemory(std::size_t inputSize) {
  int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  char text[128] = {};
  ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0)
    return;
  unsigned long long pages = std::strtoull(text, nullptr, 10);
  long pageSize = ::sysconf(_SC_PAGESIZE);
  if (!pages || pageSize <= 0)
    return;
  rlim_t inherited = rlim_t(pages) * rlim_t(pageSize);
  std::size_t budget = memoryBudget(inputSize);
  rlim_t wanted = budget > RLIM_INFINITY - inherited - 1
                      ? RLIM_INFINITY - 1
                      : inherited + rlim_t(budget);
  struct rlimit limit;
  if (::getrlimit(RLIMIT_AS, &limit) != 0)
    return;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted)
    return;
  limit.rlim_cur = wanted;
  (void)::setrlimit(RLIMIT_AS, &limit);
}

/// Cuts the child off from what of the host's it could disturb: signal
/// handlers, stdio, open files, core dumps, an orphaned life.
void isolateChild(pid_t parent, int answerFd, std::size_t inputSize) {
  // An orphaned child stuck in the reader would run forever.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent)
    ::_exit(1);

  // A crash here is an answer, not an event: the host's handlers (a crash
  // reporter, LLVM's remove-files-on-signal, a fuzzer's crash dump) must not
  // run. Ignored signals stay ignored.
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction action;
    if (::sigaction(sig, nullptr, &action) != 0 ||
        action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN)
      continue;
    action = {};
    action.sa_handler = SIG_DFL;
    (void)::sigaction(sig, &action, nullptr);
  }
  ::signal(SIGPIPE, SIG_IGN); // the parent gone: writing fails, then _exit

  // No core file or crash-collector report for an expected crash.
  struct rlimit noCore = {0, 0};
  (void)::setrlimit(RLIMIT_CORE, &noCore);
  limitMemory(inputSize); // reads /proc/self, so before the next call
  ::prctl(PR_SET_DUMPABLE, 0);

  // glibc's heap-corruption messages and LLVM's crash output would land on
  // the host's terminal or log.
  int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd <= 2; ++fd) {
    if (fd == answerFd)
      continue;
    if (devNull >= 0)
      ::dup2(devNull, fd);
    else
      ::close(fd);
  }

  // Keep only the answer pipe: copies of the host's descriptors (the write
  // end of another compile's pipe, a socket) would otherwise stay open as
  // long as this child lives.
  int fd = ::fcntl(answerFd, F_DUPFD_CLOEXEC, 3);
  childAnswerFd = fd >= 0 ? fd : answerFd;
  if (fd >= 0) {
    if (fd > 3)
      (void)::close_range(3, unsigned(fd) - 1, 0);
    (void)::close_range(unsigned(fd) + 1, ~0u, 0);
  }

  // Installed in the child only; the host's handlers are untouched.
  llvm::remove_fatal_error_handler();
  llvm::install_fatal_error_handler(onFatalError);
  llvm::remove_bad_alloc_error_handler();
  llvm::install_bad_alloc_error_handler(onBadAlloc);
  std::set_new_handler(onNewFailure);
}

/// Parses, verifies and answers. The untrusted bytes are read only here, so
/// heap damage the reader does without crashing stays in this process.
[[noreturn]] void runChild(pid_t parent, int answerFd,
                           const llvm::MemoryBuffer &input,
                           mlir::MLIRContext &context, ModuleParser parse,
                           const std::vector<SentDiagnostic> &diagnostics) {
  isolateChild(parent, answerFd, input.getBufferSize());
  std::string body;
  Answer answer = kRejected;
  try {
    // The same bytes at the same address as in the parent: a view, not a
    // copy.
    mlir::OwningOpRef<mlir::ModuleOp> module = parse(
        llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        context);
    if (module) {
      llvm::raw_string_ostream os(body);
      if (mlir::failed(mlir::writeBytecodeToFile(module.get(), os))) {
        static const char kUnwritable[] =
            "MLIR's bytecode writer cannot write the module read from it";
        finishChild(kFatal, kUnwritable, sizeof kUnwritable - 1);
      }
      answer = kParsed;
      (void)module.release(); // the process ends before it would matter
    } else {
      body = encode(diagnostics);
    }
  } catch (const std::bad_alloc &) {
    finishChild(kOutOfMemory);
  } catch (...) {
    static const char kThrown[] = "an exception escaped the bytecode reader";
    finishChild(kFatal, kThrown, sizeof kThrown - 1);
  }
  finishChild(answer, body.data(), body.size());
}

//===--- In the parent ----------------------------------------------------===//

/// The child's answer as it arrives: the header, then the body, read straight
/// into a buffer aligned for bytecode, so a module is parsed where it lies.
class AnswerReader {
public:
  AnswerReader(std::size_t maxBodySize, llvm::StringRef name)
      : maxBodySize_(maxBodySize), name_(name) {}

  /// Reads what the pipe holds now. Returns true when no more will come: at
  /// the end of the pipe (every copy of its write end closed), on a read
  /// error, or on an answer that cannot be right.
  bool drain(int fd) {
    for (;;) {
      char extra;
      char *to = &extra;
      std::size_t wanted = 1; // past a complete answer: there must be none
      if (headerSize_ < kFrameHeaderSize) {
        to = header_ + headerSize_;
        wanted = kFrameHeaderSize - headerSize_;
      } else if (bodySize_ < body_->getBufferSize()) {
        to = body_->getBufferStart() + bodySize_;
        wanted = body_->getBufferSize() - bodySize_;
      }
      ssize_t n = ::read(fd, to, wanted);
      if (n == 0)
        return true;
      if (n < 0) {
        if (errno == EINTR)
          continue;
        return errno != EAGAIN && errno != EWOULDBLOCK;
      }
      if (to == &extra) {
        malformed_ = true;
        return true;
      }
      if (headerSize_ == kFrameHeaderSize) {
        bodySize_ += std::size_t(n);
      } else if ((headerSize_ += std::size_t(n)) == kFrameHeaderSize &&
                 !startBody()) {
        malformed_ = true;
        return true;
      }
    }
  }

  bool complete() const {
    return !malformed_ && body_ && bodySize_ == body_->getBufferSize();
  }
  /// Only once complete().
  Answer kind() const { return Answer(header_[0]); }
  llvm::StringRef body() const {
    return static_cast<const llvm::MemoryBuffer &>(*body_).getBuffer();
  }
  std::unique_ptr<llvm::MemoryBuffer> takeBody() { return std::move(body_); }

private:
  bool startBody() {
    std::uint64_t size;
    if (!Decoder(llvm::StringRef(header_ + 1, 8)).integer(size, 8) ||
        size > maxBodySize_)
      return false;
    body_ = llvm::WritableMemoryBuffer::getNewUninitMemBuffer(
        std::size_t(size), name_, kBytecodeBufferAlignment);
    return body_ != nullptr;
  }

  const std::size_t maxBodySize_;
  const llvm::StringRef name_;
  char header_[kFrameHeaderSize] = {};
  std::size_t headerSize_ = 0;
  std::unique_ptr<llvm::WritableMemoryBuffer> body_;
  std::size_t bodySize_ = 0;
  bool malformed_ = false;
};

/// How the wait for the child ended.
struct Outcome {
  bool timedOut = false;
  bool reaped = false; // `status` is the child's wait status
  int status = 0;
};

/// Waits for the child's answer or death until `limit` has passed, then kills
/// it. Reaps it in every case, unless the host reaps its children itself
/// (SIGCHLD ignored, or a handler calling wait), which takes the status away.
Outcome waitForChild(pid_t pid, int readFd, milliseconds limit,
                     AnswerReader &answer) {
  Outcome out;
  const Clock::time_point deadline = Clock::now() + limit;
  for (;;) {
    if (answer.drain(readFd) || answer.complete())
      break;
    auto left =
        std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      out.timedOut = true;
      break;
    }
    // The end of the pipe can come late: a child forked meanwhile by another
    // thread of the host (say, a concurrent compile's) holds a copy of the
    // write end until it exits. So nap briefly and ask about the child too.
    pollfd ready = {readFd, POLLIN, 0};
    (void)::poll(&ready, 1, int(std::min<long long>(left.count(), 50)));
    pid_t done = ::waitpid(pid, &out.status, WNOHANG);
    if (done == pid || (done < 0 && errno == ECHILD)) {
      out.reaped = done == pid;
      (void)answer.drain(readFd); // what it wrote before it ended
      return out;
    }
  }
  if (out.timedOut)
    ::kill(pid, SIGKILL);
  for (;;) {
    pid_t done = ::waitpid(pid, &out.status, 0);
    if (done == pid) {
      out.reaped = true;
      break;
    }
    if (done < 0 && errno != EINTR)
      break;
  }
  return out;
}

std::string describeLimit(milliseconds limit) {
  if (limit.count() % 1000 == 0)
    return std::to_string(limit.count() / 1000) + " s";
  return std::to_string(limit.count()) + " ms";
}

std::string describeSignal(int sig) {
  std::string out = "signal " + std::to_string(sig);
  if (const char *name = ::sigabbrev_np(sig))
    out += std::string(", SIG") + name;
  return out;
}

/// Why an outcome other than a module or diagnostics is refused.
std::string describeFailure(const AnswerReader &answer, const Outcome &out,
                            milliseconds limit, std::size_t inputSize) {
  if (answer.complete() && answer.kind() == kFatal)
    return "the bytecode reader failed on this input: " + answer.body().str() +
           kCorrupt;
  if (answer.complete() && answer.kind() == kOutOfMemory)
    return "the bytecode reader needed more than " +
           std::to_string(memoryBudget(inputSize) >> 20) +
           " MiB on this input" + kCorrupt;
  if (out.timedOut)
    return "the bytecode reader did not finish within " + describeLimit(limit) +
           " (AOT_BYTECODE_PARSE_TIMEOUT sets the limit in seconds)" + kCorrupt;
  if (out.reaped && WIFSIGNALED(out.status))
    return "the bytecode reader crashed on this input (" +
           describeSignal(WTERMSIG(out.status)) + ")" + kCorrupt;
  if (out.reaped && WIFEXITED(out.status))
    return "the bytecode reader ended abnormally on this input (exit status " +
           std::to_string(WEXITSTATUS(out.status)) + ")" + kCorrupt;
  return std::string("the bytecode reader ended abnormally on this input") +
         kCorrupt;
}

} // namespace

milliseconds bytecodeParseTimeLimit(std::size_t inputSize) {
  if (const char *text = std::getenv("AOT_BYTECODE_PARSE_TIMEOUT")) {
    char *end = nullptr;
    double seconds = std::strtod(text, &end);
    if (end != text && *end == '\0' && std::isfinite(seconds) && seconds > 0 &&
        seconds <= 86400)
      return milliseconds(std::max<long long>(1, std::llround(seconds * 1e3)));
  }
  constexpr std::size_t unit = std::size_t(256) << 20;
  return kDefaultBytecodeParseTimeLimit +
         kBytecodeParseTimePer256MiB * ((inputSize + unit - 1) / unit);
}

mlir::OwningOpRef<mlir::ModuleOp>
parseUntrustedBytecode(const llvm::MemoryBuffer &input,
                       mlir::MLIRContext &context, ModuleParser parse,
                       std::string &refusal) {
  const milliseconds limit = bytecodeParseTimeLimit(input.getBufferSize());

  // Built here rather than in the child, where another thread's locks may be
  // stuck. The child records its diagnostics instead of printing them.
  mlir::MLIRContext trial(context.getDialectRegistry(),
                          mlir::MLIRContext::Threading::DISABLED);
  trial.printOpOnDiagnostic(false);
  std::vector<SentDiagnostic> diagnostics;
  trial.getDiagEngine().registerHandler([&](mlir::Diagnostic &d) {
    SentDiagnostic sent;
    sent.diagnostic.severity = severityOf(d.getSeverity());
    sent.diagnostic.message = d.str();
    fillLocation(d.getLocation(), sent.diagnostic);
    diagnostics.push_back(sent);
    for (mlir::Diagnostic &note : d.getNotes()) {
      SentDiagnostic attached;
      attached.isNote = true;
      attached.diagnostic.severity = Severity::Note;
      attached.diagnostic.message = note.str();
      fillLocation(note.getLocation(), attached.diagnostic);
      diagnostics.push_back(std::move(attached));
    }
    return mlir::success();
  });

  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    refusal = "cannot start the guarded parse of this bytecode: pipe: " +
              llvm::sys::StrError(errno);
    return nullptr;
  }
  FileDescriptor readEnd(ends[0]), writeEnd(ends[1]);
  // Non-blocking, so reading what is there never waits for the end of file.
  int flags = ::fcntl(readEnd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(readEnd.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
    refusal = "cannot start the guarded parse of this bytecode: fcntl: " +
              llvm::sys::StrError(errno);
    return nullptr;
  }

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    refusal = "cannot start the guarded parse of this bytecode: fork: " +
              llvm::sys::StrError(errno);
    return nullptr;
  }
  if (pid == 0) {
    readEnd.reset();
    runChild(parent, writeEnd.get(), input, trial, parse, diagnostics);
  }
  writeEnd.reset(); // so the pipe ends when the child does

  AnswerReader answer(memoryBudget(input.getBufferSize()),
                      input.getBufferIdentifier());
  Outcome out = waitForChild(pid, readEnd.get(), limit, answer);
  if (answer.complete() && answer.kind() == kParsed)
    return parse(answer.takeBody(), context);
  if (answer.complete() && answer.kind() == kRejected) {
    if (std::optional<std::vector<SentDiagnostic>> sent =
            decode(answer.body())) {
      reemit(*sent, context);
      return nullptr;
    }
  }
  refusal = describeFailure(answer, out, limit, input.getBufferSize());
  return nullptr;
}

} // namespace aot
