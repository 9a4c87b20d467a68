// Calls the compiled `scale` through its typed header, as an application
// would, and checks one value by hand.
#include "scale.h"

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> x(2 * 4, 1.0f);
  auto view = aot::abi::MemRef<float, 2>::contiguous(x.data(), {2, 4});
  auto [y, sum] = aot_compiled::scale::scale(view, 3.0f);
  if (y.shape()[0] != 2 || y(1, 3) != 3.0f || sum() != 24.0f) {
    std::fprintf(stderr, "unexpected result: y(1,3)=%g sum=%g\n", y(1, 3),
                 sum());
    return 1;
  }
  std::printf("scale: y(1,3)=%g sum=%g\n", y(1, 3), sum());
  return 0;
}
