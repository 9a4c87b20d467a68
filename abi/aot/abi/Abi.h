//===- Abi.h - everything of the mlir-aot ABI layer -----------------------===//
//
// The umbrella header of MlirAot::abi. Runtime.h (the C runtime symbols) is
// not included: it is for code that links MlirAot::runtime.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Compare.h"
#include "aot/abi/Config.h"
#include "aot/abi/DType.h"
#include "aot/abi/Eigen.h"
#include "aot/abi/Error.h"
#include "aot/abi/MemRef.h"
#include "aot/abi/Npy.h"
#include "aot/abi/Npz.h"
#include "aot/abi/Owned.h"
#include "aot/abi/Ownership.h"
#include "aot/abi/Tensor.h"
