//===- fuzz_manifest.cpp - libFuzzer target: manifests --------------------===//
//
// Every input goes to aot::Manifest::fromJson, the reader of the manifests
// that aot-testgen takes and that compiled files carry. It must return a
// manifest or an error; a crash (a stack overflow on deep nesting among
// them) is a bug. A manifest it accepts must print and read back the same.
//
//===----------------------------------------------------------------------===//
#include "aot/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  auto manifest = aot::Manifest::fromJson(
      std::string_view(reinterpret_cast<const char *>(data), size));
  if (!manifest)
    return 0;
  auto again = aot::Manifest::fromJson(manifest->toJson());
  if (!again || again->toJson() != manifest->toJson())
    std::abort();
  return 0;
}
