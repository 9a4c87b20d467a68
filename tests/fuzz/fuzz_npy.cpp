//===- fuzz_npy.cpp - libFuzzer target: .npy arrays -----------------------===//
//
// Every input goes to aot::abi::parseNpy, as a whole file, and, prefix by
// prefix, to the header reader that readNpy and the .npz reader use to
// bound what they read: it must ask for more bytes than it has, or give a
// layout whose size the whole parse agrees with, or throw aot::abi::Error
// naming the input. Anything else, a crash or an out-of-bounds read (this
// target runs under AddressSanitizer), is a bug.
//
//===----------------------------------------------------------------------===//
#include "aot/abi/Npy.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace {

const std::string kName = "fuzz.npy";

bool namesInput(const aot::abi::Error &e) {
  return std::string_view(e.what()).find(kName) != std::string_view::npos;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  // The streaming header reader, on growing prefixes as readNpy feeds it:
  // each time it needs more, it must ask for more than it had.
  std::optional<aot::abi::detail::NpyLayout> layout;
  try {
    for (std::uint64_t need = 10;;) {
      std::uint64_t have = std::min<std::uint64_t>(need, size);
      layout = aot::abi::detail::npyLayout(bytes.substr(0, have), kName, false,
                                           &need);
      if (layout || need > size)
        break;
      if (need <= have)
        std::abort();
    }
  } catch (const aot::abi::Error &e) {
    if (!namesInput(e))
      std::abort();
  }
  try {
    aot::abi::Tensor t = aot::abi::parseNpy(bytes, kName);
    // A whole parse succeeds only where the header reader saw the same.
    if (!layout || layout->fileBytes() != size ||
        layout->dataBytes != std::uint64_t(t.numElements()) * t.elementSize())
      std::abort();
    volatile unsigned char sink = 0;
    const auto *p = static_cast<const unsigned char *>(t.rawData());
    for (std::uint64_t i = 0; i < layout->dataBytes; ++i)
      sink = sink ^ p[i];
  } catch (const aot::abi::Error &e) {
    if (!namesInput(e))
      std::abort();
  }
  return 0;
}
