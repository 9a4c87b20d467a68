//===- Registry.cpp - the back ends built in ------------------------------===//
//
// The one place that names every back end; above them, so that no back end
// knows another.
//
//===----------------------------------------------------------------------===//
#include "Backend/Backend.h"

#include "Backend/Cpu/CpuBackend.h"
#include "Backend/Cuda/CudaBackend.h"

namespace aot {

std::span<const Backend *const> allBackends() {
  // Built in, in the order of Target::Kind; made on first use, so nothing
  // runs at load time.
  static const Backend *const backends[] = {&cpuBackend(), &cudaBackend()};
  return backends;
}

const Backend &backendFor(Target::Kind kind) {
  for (const Backend *backend : allBackends())
    if (backend->kind() == kind)
      return *backend;
  return cpuBackend(); // unreachable: every kind has a back end
}

const Backend *backendNamed(std::string_view name) {
  for (const Backend *backend : allBackends())
    if (backend->name() == name)
      return backend;
  return nullptr;
}

} // namespace aot
