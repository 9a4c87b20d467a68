//===- DeviceCode.h - kernels to PTX and cubin ----------------------------===//
//
// PTX is generated in-process by LLVM's NVPTX back end; ptxas, from a CUDA
// toolkit, is the only outside tool, and optional. The toolkit is looked up
// in $CUDA_HOME when it is set (and only there: a user who sets it means
// it), else in /usr/local/cuda and /usr/lib/nvidia-cuda-toolkit.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Target.h"

#include <map>
#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace aot {

/// The triple of the kernels' LLVM modules.
inline constexpr const char *kNvptxTriple = "nvptx64-nvidia-cuda";

/// The PTX ISA version `target` compiles to, as its two digits ("78"):
/// the one it names, else the oldest that supports its chip (the widest
/// range of drivers). An error for a chip LLVM does not know, a PTX
/// version it does not know, or a pair the chip cannot use.
Expected<std::string> ptxVersionFor(const Target &target);

/// The LLVM feature string of the kernels: "+ptxNN" and the target's own.
Expected<std::string> nvptxFeatures(const Target &target);

/// Where the CUDA toolkit's pieces are; empty when not found.
struct CudaToolkit {
  std::string root;      ///< the directory searched that had something
  std::string ptxas;     ///< the ptxas executable
  std::string libdevice; ///< libdevice.10.bc
  std::string searched;  ///< the places looked at, for messages
};
CudaToolkit findCudaToolkit();

/// Each kernel's LLVM IR by kernel name, as made from the NVVM dialect and
/// after the optimization pipeline (for --dump-kernels).
struct KernelIr {
  std::map<std::string, std::string> initial;
  std::map<std::string, std::string> optimized;
};

/// Compiles a gpu.module in the NVVM dialect to PTX, linking libdevice
/// when `libdevice` is not empty. `optLevel` is LLVM's, 0 to 3. Fills `ir`
/// when given.
Expected<std::string> emitPtx(mlir::Operation &gpuModule,
                              const Target &target, int optLevel,
                              const std::string &libdevice,
                              KernelIr *ir = nullptr);

/// Assembles `ptx` for the target's chip with ptxas; `lineInfo` keeps the
/// source lines for debuggers and profilers. With `report`, ptxas also
/// reports each kernel's registers, spills and shared memory (-v) there.
Expected<std::string> assemblePtx(const std::string &ptx,
                                  const Target &target,
                                  const std::string &ptxas, bool lineInfo,
                                  std::string *report = nullptr);

} // namespace aot
