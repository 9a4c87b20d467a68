//===- CallGuard.cpp - a crash of compiled code returned as a status ------===//
//
// The handlers are installed while at least one guarded call runs (a count
// under a mutex, so concurrent calls on several threads share them) and the
// previous ones put back after the last. A fault on a thread that is inside
// a guarded call jumps back to that call's frame; any other fault is passed
// to the handler that was there before, or, if that was the default,
// re-raised under the default.
//
//===----------------------------------------------------------------------===//
#include "aot/abi/CallGuard.h"

#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstdlib>

#include <pthread.h>

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr std::size_t kSignalCount = sizeof kSignals / sizeof kSignals[0];

// A pthread mutex, not std::mutex, whose failure path is in libstdc++: the
// libraries that carry this file need no C++ runtime.
pthread_mutex_t gInstallMutex = PTHREAD_MUTEX_INITIALIZER;
int gGuardedCalls = 0;
struct sigaction gPrevious[kSignalCount];

/// The innermost guarded call of this thread, where a fault jumps to, and
/// the signal that made it jump.
thread_local sigjmp_buf *tJump = nullptr;
thread_local volatile sig_atomic_t tSignal = 0;
/// An alternate stack for this thread, so that a stack overflow reaches the
/// handler too; made at the thread's first guarded call, and kept (malloc,
/// not new: the libraries that carry this file need no C++ runtime).

std::size_t indexOf(int sig) {
  for (std::size_t i = 0; i < kSignalCount; ++i)
    if (kSignals[i] == sig)
      return i;
  return 0;
}

void onFault(int sig, siginfo_t *info, void *context) {
  if (sigjmp_buf *jump = tJump) {
    tSignal = sig;
    siglongjmp(*jump, 1);
  }
  // Not ours: the handler from before, or the default action.
  const struct sigaction &previous = gPrevious[indexOf(sig)];
  if (previous.sa_flags & SA_SIGINFO) {
    previous.sa_sigaction(sig, info, context);
  } else if (previous.sa_handler == SIG_IGN) {
    return;
  } else if (previous.sa_handler != SIG_DFL) {
    previous.sa_handler(sig);
  } else {
    // Returning re-runs the faulting instruction, which then meets the
    // default action; a signal sent by raise() or kill() is sent again.
    signal(sig, SIG_DFL);
    if (!info || info->si_code <= 0)
      raise(sig);
  }
}

void ensureAltStack() {
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE))
    return;
  std::size_t size = SIGSTKSZ > 65536 ? SIGSTKSZ : 65536;
  void *memory = std::malloc(size);
  if (!memory)
    return;
  stack_t stack{};
  stack.ss_sp = memory;
  stack.ss_size = size;
  sigaltstack(&stack, nullptr);
}

void enter() {
  pthread_mutex_lock(&gInstallMutex);
  if (gGuardedCalls++ > 0) {
    pthread_mutex_unlock(&gInstallMutex);
    return;
  }
  struct sigaction action {};
  action.sa_sigaction = onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < kSignalCount; ++i)
    sigaction(kSignals[i], &action, &gPrevious[i]);
  pthread_mutex_unlock(&gInstallMutex);
}

void leave() {
  pthread_mutex_lock(&gInstallMutex);
  if (--gGuardedCalls == 0)
    for (std::size_t i = 0; i < kSignalCount; ++i)
      sigaction(kSignals[i], &gPrevious[i], nullptr);
  pthread_mutex_unlock(&gInstallMutex);
}

} // namespace

extern "C" std::int32_t aot::abi::aotGuardedInvoke(void (*entry)(void **),
                                                   void **slots) {
  ensureAltStack();
  enter();
  sigjmp_buf jump;
  sigjmp_buf *outer = tJump;
  std::int32_t status = 0;
  if (sigsetjmp(jump, /*savemask=*/1) == 0) {
    tJump = &jump;
    entry(slots);
  } else {
    status = tSignal;
  }
  tJump = outer;
  leave();
  return status;
}
