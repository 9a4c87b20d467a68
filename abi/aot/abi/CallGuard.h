//===- CallGuard.h - a crash of compiled code returned as a status --------===//
//
// A caller that must outlive a crash of the code it calls (the Python
// module, in its user's interpreter) calls an entry point through
// aotGuardedInvoke: a synchronous fault of the compiled code on the calling
// thread (an invalid access, a trap, an integer division by zero, an abort)
// comes back as the signal's number instead of ending the process. Every
// shared library aot-compile writes carries it (from MlirAot::runtime).
//
// Recovery is best effort, as for any signal handler that leaves the code
// it interrupted: what the call allocated is lost, and a crash inside a
// parallel loop leaves the OpenMP runtime in a state later parallel calls
// may not survive. A fault on another thread than the caller's is not
// caught here: it reaches whatever handler was there before.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <cstdint>

AOT_ABI_BEGIN_NAMESPACE

extern "C" {
/// Calls `entry(slots)`, an `_aot_invoke_NAME` entry point and its slots.
/// Returns 0 when it returned, or the signal (SIGSEGV, SIGBUS, SIGFPE,
/// SIGILL, SIGABRT) it raised on this thread, the call abandoned there.
/// Thread-safe; calls may nest.
std::int32_t aotGuardedInvoke(void (*entry)(void **), void **slots);
}

AOT_ABI_END_NAMESPACE
