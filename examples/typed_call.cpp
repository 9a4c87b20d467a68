// Calls the MLP through the typed header aot-compile generated for it.
#include "mlp.h"

#include <iostream>
#include <vector>

int main() {
  using aot::abi::MemRef;
  std::vector<float> x = {1, -2, 3, -4, 0.5f, 0.25f, -1, 2};
  std::vector<float> w1(4 * 8), b1(8, 0.1f), w2(8 * 3), b2 = {1, 2, 3};
  for (size_t i = 0; i < w1.size(); ++i) w1[i] = float(int(i % 5) - 2) / 4;
  for (size_t i = 0; i < w2.size(); ++i) w2[i] = float(int(i % 3) - 1) / 2;

  auto y = aot_compiled::mlp::mlp(
      MemRef<float, 2>::contiguous(x.data(), {2, 4}),
      MemRef<float, 3>::contiguous(w1.data(), {1, 4, 8}),
      MemRef<float, 3>::contiguous(b1.data(), {1, 1, 8}),
      MemRef<float, 3>::contiguous(w2.data(), {1, 8, 3}),
      MemRef<float, 3>::contiguous(b2.data(), {1, 1, 3}));
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j)
      std::cout << y[{i, j}] << " ";
    std::cout << "\n";
  }
  try { // a static dim that does not match throws instead of reading past x
    aot_compiled::mlp::mlp(MemRef<float, 2>::contiguous(x.data(), {1, 8}),
        MemRef<float, 3>::contiguous(w1.data(), {1, 4, 8}),
        MemRef<float, 3>::contiguous(b1.data(), {1, 1, 8}),
        MemRef<float, 3>::contiguous(w2.data(), {1, 8, 3}),
        MemRef<float, 3>::contiguous(b2.data(), {1, 1, 3}));
  } catch (const aot::abi::Error &e) {
    std::cout << "wrong shape: " << e.what() << "\n";
  }
}
