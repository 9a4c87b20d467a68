//===- MatmulError.h - checking a compiled matmul against Eigen -----------===//
#pragma once

#include "aot/abi/Tensor.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace aot::bench {

using RowMatrix =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// The largest error accepted, relative to (|A|·|B|) element by element:
/// about 50 times the rounding error expected of an f32 dot product of
/// length 1024, and ten times less than a single missing term would cause.
constexpr double kMatmulTolerance = 1e-4;

/// The largest |c - e| / (|A|·|B|) over the elements of one matrix of `c`,
/// the one that starts at element `offset` (a batch's matrix), where
/// `scale` holds |A|·|B|: the error relative to the size of the terms
/// summed, which stays meaningful where cancellation makes an element of C
/// close to 0. NaN when the result holds a NaN or an infinity.
inline double maxRelError(const abi::Tensor &c, const RowMatrix &expected,
                          const RowMatrix &scale, std::int64_t offset = 0) {
  double worst = 0;
  for (Eigen::Index i = 0; i < expected.rows(); ++i) {
    for (Eigen::Index j = 0; j < expected.cols(); ++j) {
      float got = *static_cast<const float *>(
          c.elementAt(offset + std::int64_t(i * expected.cols() + j)));
      if (!std::isfinite(got))
        return NAN;
      double err = std::abs(double(got) - double(expected(i, j))) /
                   std::max(double(scale(i, j)), 1e-30);
      worst = std::max(worst, err);
    }
  }
  return worst;
}

} // namespace aot::bench
