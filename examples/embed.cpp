// Compiles a model in-process, loads it and calls it: the library API.
#include "aot/Compiler.h"

#include <iostream>
#include <vector>

int main(int argc, char **argv) {
  aot::Compiler compiler;
  auto artifact = compiler.compile(aot::Source::file(argc > 1 ? argv[1] : "scale.mlir"));
  if (!artifact) { std::cerr << artifact.error().str() << "\n"; return 1; }
  auto module = artifact->load();
  if (!module) { std::cerr << module.error().str() << "\n"; return 1; }

  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8}; // a 2x4 tensor
  auto results = module->call("scale", {aot::abi::Tensor::borrow(x.data(), {2, 4}), 0.5f});
  if (!results) { std::cerr << results.error().str() << "\n"; return 1; }

  const aot::abi::Tensor &y = (*results)[0], &sum = (*results)[1];
  for (int64_t i = 0; i < y.numElements(); ++i)
    std::cout << *static_cast<float *>(y.elementAt(i)) << " ";
  std::cout << "\nsum = " << *sum.data<float>() << "\n";
  // Misuse is an error, not a crash: a rank-1 tensor for a rank-2 argument.
  auto bad = module->call("scale", {aot::abi::Tensor::borrow(x.data(), {8}), 0.5f});
  std::cout << "wrong rank: " << bad.error().str() << "\n";
}
