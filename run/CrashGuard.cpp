//===- CrashGuard.cpp - a crash of compiled code reported as one
//-----------===//
#include "CrashGuard.h"

#include <csignal>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace aot::run {

namespace {
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/// The message, made before the call: a signal handler may only write it.
char gWhat[512];
struct sigaction gPrevious[std::size(kSignals)];
std::vector<char> gAltStack;

const char *describe(int sig) {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV (invalid memory access)";
  case SIGBUS:
    return "SIGBUS (misaligned or unmapped memory)";
  case SIGFPE:
    return "SIGFPE (arithmetic exception, e.g. integer division "
           "by zero)";
  case SIGILL:
    return "SIGILL (illegal instruction: code for another CPU?)";
  case SIGABRT:
    return "SIGABRT (abort)";
  default:
    return "a fatal signal";
  }
}

void write(const char *s) { (void)!::write(2, s, std::strlen(s)); }

void onCrash(int sig) {
  write("aot-run: error: ");
  write(gWhat);
  write(" crashed: ");
  write(describe(sig));
  write("\n");
  ::_exit(1);
}
} // namespace

CrashGuard::CrashGuard(const std::string &what) {
  std::strncpy(gWhat, what.c_str(), sizeof gWhat - 1);
  if (gAltStack.empty()) {
    gAltStack.resize(1 << 16);
    stack_t stack{};
    stack.ss_sp = gAltStack.data();
    stack.ss_size = gAltStack.size();
    sigaltstack(&stack, nullptr);
  }
  struct sigaction action {};
  action.sa_handler = onCrash;
  action.sa_flags = SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &action, &gPrevious[i]);
}

CrashGuard::~CrashGuard() {
  for (size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &gPrevious[i], nullptr);
}

} // namespace aot::run
