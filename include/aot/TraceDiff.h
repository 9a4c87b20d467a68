//===- TraceDiff.h - comparing two kernel traces --------------------------===//
//
// Two runs of code compiled with --trace-kernels-to (say -O0 and -O3, or
// with and without a substituted kernel) each leave a directory of
// NNNN-KERNEL.npz files and a launches.jsonl index. Compared launch by
// launch, the first launch whose buffers differ names the kernel to look at.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/abi/Compare.h"

#include <string>

namespace aot {

/// What diffKernelTraces() found.
struct TraceDiff {
  /// True when every launch of both traces matched.
  bool same = false;
  /// The launch number (from 1) of the first difference; 0 when none.
  int firstLaunch = 0;
  /// Lines for a person: the launches compared and the first difference
  /// (kernel, source location, buffer, element, both values), or that the
  /// traces agree.
  std::string report;
};

/// Compares the traces in `dir1` and `dir2` launch by launch in the order
/// of their launches.jsonl: kernel names, then each buffer with `tolerance`
/// (integers exactly). A trace with more launches than the other differs at
/// the first launch the other lacks. An error when a directory, its index or
/// an .npz cannot be read.
Expected<TraceDiff> diffKernelTraces(const std::string &dir1,
                                     const std::string &dir2,
                                     const abi::Tolerance &tolerance);

} // namespace aot
