//===- Config.h - ABI versioning ------------------------------------------===//
//
// The ABI lives in a versioned inline namespace so that two incompatible
// revisions linked into one program fail at link time instead of at run time.
//
//===----------------------------------------------------------------------===//
#pragma once

#define AOT_ABI_VERSION 1
#define AOT_ABI_BEGIN_NAMESPACE                                                \
  namespace aot::abi {                                                         \
  inline namespace v1 {
#define AOT_ABI_END_NAMESPACE                                                  \
  }                                                                            \
  }
