//===- CompareInstances.cpp - abi::compare's element loops, compiled once -===//
//
// The explicit instantiations that Compare.h declares extern for programs
// that link MlirAot::testmain (AOT_ABI_COMPARE_INSTANTIATED): one for each
// dtype, so that no generated test compiles them again.
//
//===----------------------------------------------------------------------===//
#include "aot/abi/Compare.h"

AOT_ABI_BEGIN_NAMESPACE
namespace detail {

#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors)           \
  template Comparison compareTyped<type>(const Tensor &, const Tensor &,       \
                                         const Tolerance &);
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE

} // namespace detail
AOT_ABI_END_NAMESPACE
