//===- CrashGuard.h - a crash of compiled code reported as one
//-------------===//
#pragma once

#include <string>

namespace aot::run {

/// While alive, a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT)
/// on any thread ends the process with status 1 after one line on stderr
/// naming the signal and `what` ("function 'f' of module 'm'"), instead of
/// a bare core dump. The handler runs on an alternate stack, so a stack
/// overflow is reported too. One guard at a time.
class CrashGuard {
public:
  explicit CrashGuard(const std::string &what);
  ~CrashGuard();
  CrashGuard(const CrashGuard &) = delete;
  CrashGuard &operator=(const CrashGuard &) = delete;
};

} // namespace aot::run
