//===- abi_core_headers.cpp - the pure ABI stands alone ------------------===//
//
// Compiled against MlirAot::abi_core only (no libzip, no Eigen on the
// include path): every header of the pure ABI, the one generated headers
// and compiled code rely on, must compile on its own and pull in no .npz or
// Eigen header.
//
//===----------------------------------------------------------------------===//
#include "aot/abi/Config.h"
#include "aot/abi/DType.h"
#include "aot/abi/Error.h"
#include "aot/abi/MemRef.h"
#include "aot/abi/Owned.h"
#include "aot/abi/Ownership.h"
#include "aot/abi/ReferenceKeys.h"
#include "aot/abi/Runtime.h"
#include "aot/abi/Tensor.h"

#if defined(_HAD_ZIP_H) || defined(EIGEN_WORLD_VERSION)
#error "a pure ABI header includes libzip or Eigen"
#endif

#include <cstdio>

int main() {
  // The key scheme is part of the pure ABI: check it here too.
  aot::abi::ReferenceKeys perFunction =
      aot::abi::ReferenceKeys::choose({"f", "g"}, {"Input0", "Output0"});
  aot::abi::ReferenceKeys numbered =
      aot::abi::ReferenceKeys::choose({"f"}, {"Input0", "Output0"});
  aot::abi::ReferenceKeys own =
      aot::abi::ReferenceKeys::choose({"f"}, {"f/arg0", "Input0"});
  bool ok = perFunction.argument("f", 1) == "f/arg1" &&
            perFunction.result("g", 0) == "g/result0" &&
            numbered.argument("f", 2) == "Input2" &&
            numbered.result("f", 0) == "Output0" &&
            own.scheme() == aot::abi::ReferenceKeys::Scheme::PerFunction &&
            !aot::abi::ReferenceKeys::isNumbered("Input", "Input") &&
            !aot::abi::ReferenceKeys::isNumbered("Input1x", "Input") &&
            aot::abi::ReferenceKeys::isNumbered("Output12", "Output");
  if (!ok)
    std::fprintf(stderr, "ReferenceKeys: unexpected key names\n");
  return ok ? 0 : 1;
}
