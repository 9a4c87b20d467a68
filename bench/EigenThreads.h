//===- EigenThreads.h - Eigen on a given number of threads ----------------===//
#pragma once

#include <Eigen/Core>

namespace aot::bench {

/// Sets Eigen's thread count; false when Eigen was built without OpenMP
/// (then it stays on one thread, and a 2-thread column says so).
inline bool eigenOnThreads(int count) {
#ifdef AOT_BENCH_EIGEN_THREADS
  Eigen::setNbThreads(count);
  return Eigen::nbThreads() == count;
#else
  return count == 1;
#endif
}

} // namespace aot::bench
