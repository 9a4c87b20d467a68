//===- fuzz_npz.cpp - libFuzzer target: .npz archives ---------------------===//
//
// Every input goes to aot::abi::parseNpz, the reader of reference tensors.
// It must either throw aot::abi::Error naming the archive or return tensors
// whose every element can be read: any other exception, a crash or an
// out-of-bounds read (this target runs under AddressSanitizer) is a bug.
//
//===----------------------------------------------------------------------===//
#include "aot/abi/Npz.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  static const std::string kName = "fuzz.npz";
  std::map<std::string, aot::abi::Tensor> tensors;
  try {
    tensors = aot::abi::parseNpz(
        std::string(reinterpret_cast<const char *>(data), size), kName);
  } catch (const aot::abi::Error &e) {
    if (std::string_view(e.what()).find(kName) == std::string_view::npos)
      std::abort();
    return 0;
  }
  // Read every byte of every element, through the strides.
  volatile unsigned char sink = 0;
  for (const auto &[key, tensor] : tensors)
    for (std::int64_t i = 0, n = tensor.numElements(); i < n; ++i) {
      auto *element = static_cast<const unsigned char *>(tensor.elementAt(i));
      for (std::size_t b = 0; b < tensor.elementSize(); ++b)
        sink = sink ^ element[b];
    }
  return 0;
}
