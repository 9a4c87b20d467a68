//===- KernelDebug.h - the CUDA back end's kernel debugging switches ------===//
//
// --dump-kernels writes each kernel in every form the compile makes of it;
// --substitute-kernel swaps one compiled kernel for a .ptx or .cubin file,
// checked against the kernel's parameters. Both work by kernel name, as
// the PTX and the profilers name kernels.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Backend/Cuda/DeviceCode.h"
#include "aot/Diagnostics.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mlir {
class Location;
class ModuleOp;
class Operation;
} // namespace mlir

namespace aot {

/// "FILE:LINE:COL" of the first file location in `loc`; empty if none.
std::string locationText(mlir::Location loc);

/// The names of the kernels (`.entry` functions) of a PTX module, in order.
std::vector<std::string> ptxEntries(std::string_view ptx);

/// The byte size of each parameter of `kernel` as `ptx` declares it; an
/// error when it declares no such kernel.
Expected<std::vector<unsigned>> ptxKernelParams(std::string_view ptx,
                                                std::string_view kernel);

/// The same from a cubin: the parameters ptxas recorded for `kernel` (its
/// .nv.info.KERNEL section); an error when the ELF has no such kernel.
Expected<std::vector<unsigned>> cubinKernelParams(std::string_view cubin,
                                                  std::string_view kernel);

/// `ptx` without the kernels other than `kernel`: a module that ptxas
/// assembles on its own.
std::string ptxOfKernel(std::string_view ptx, std::string_view kernel);

/// Writes every outlined kernel (gpu.func) of `module` as DIR/NAME.mlir.
Status writeOutlinedKernels(mlir::ModuleOp module, const std::string &dir);

/// What --dump-kernels writes after the PTX is made: NAME.ll, NAME.opt.ll,
/// NAME.ptx, NAME.cubin (when ptxas is found) and NAME.json for each kernel
/// of `ptx`; `module` is the last MLIR stage's output, whose launches give
/// the grid and block sizes.
Status writeKernelDump(mlir::ModuleOp module, const std::string &dir,
                       const std::string &ptx, const KernelIr &ir,
                       const Target &target, const CudaToolkit &toolkit,
                       bool lineInfo);

/// Makes each launch of a substituted kernel use the given file instead
/// (as a gpu.binary of its own, named after the kernel), after checking
/// that the file defines the kernel with the compiled kernel's parameters.
/// `ptx` is the compiled kernels' PTX; a note per substitution is added to
/// `notes`.
Status substituteKernels(
    mlir::ModuleOp module, const std::string &ptx,
    const std::vector<std::pair<std::string, std::string>> &substitutions,
    std::vector<Diagnostic> &notes);

/// Makes the debug info of the kernels in `gpuModule` line directives only
/// (.loc and .file in the PTX, no DWARF sections): what ptxas -lineinfo
/// takes with optimized code, where full debug info needs ptxas -G.
void lineDirectivesOnly(mlir::Operation *gpuModule);

} // namespace aot
