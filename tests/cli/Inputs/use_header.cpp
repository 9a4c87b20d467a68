// Calls kernels.mlir through the header aot-compile generates for it.
#include "kernels.h"

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> a(32), b(32), x(12);
  for (int i = 0; i < 32; ++i) {
    a[i] = float(i);
    b[i] = 10.0f * float(i);
  }
  for (int i = 0; i < 12; ++i)
    x[i] = float(i);

  namespace k = aot_compiled::kernels;
  using aot::abi::MemRef;
  auto sum = k::add(MemRef<float, 2>::contiguous(a.data(), {4, 8}),
                    MemRef<float, 2>::contiguous(b.data(), {4, 8}));
  std::printf("add(1, 2) = %g\n", sum(1, 2));

  auto scaled = k::scale(MemRef<float, 2>::contiguous(x.data(), {3, 4}), 2.0f, 7);
  std::printf("scale shape = %lldx%lld\n", (long long)scaled.shape()[0],
              (long long)scaled.shape()[1]);
  std::printf("scale(2, 3) = %g\n", scaled(2, 3));

  try {
    k::add(MemRef<float, 2>::contiguous(a.data(), {4, 7}),
           MemRef<float, 2>::contiguous(b.data(), {4, 8}));
    std::printf("wrong dim: accepted\n");
  } catch (const aot::abi::Error &e) {
    std::printf("wrong dim: %s\n", e.what());
  }
  return 0;
}
