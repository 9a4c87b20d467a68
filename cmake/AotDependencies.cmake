# Finds what the build needs: LLVM/MLIR 22 (only for the compiler library), libzip
# (for .npz) and Eigen. The numpy interpreter is found by AotCompile.cmake.
include_guard(GLOBAL)

find_package(PkgConfig REQUIRED)
pkg_check_modules(AOT_LIBZIP REQUIRED IMPORTED_TARGET libzip)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)

# LLVM/MLIR 22 from Debian: link the shared libMLIR.so and libLLVM.so, which
# keeps links around a second and the build tree small.
macro(aot_find_mlir)
  # MLIR's package version file accepts only exact versions (22.1.8), so
  # check the major version by hand.
  find_package(MLIR REQUIRED CONFIG)
  if(NOT LLVM_VERSION_MAJOR EQUAL 22)
    message(FATAL_ERROR "MLIR 22 is required, found ${LLVM_PACKAGE_VERSION} at ${MLIR_DIR}")
  endif()
  list(APPEND CMAKE_MODULE_PATH ${MLIR_CMAKE_DIR} ${LLVM_CMAKE_DIR})
  include(TableGen)
  include(AddLLVM)
  include(AddMLIR)
  # LLD's ELF driver (liblld-22-dev) merges the objects of a module's
  # partitions, generated on separate threads, into one, in-process.
  find_package(LLD REQUIRED CONFIG HINTS "${LLVM_INSTALL_PREFIX}/lib/cmake/lld"
               "${LLVM_LIBRARY_DIR}/cmake/lld")
endmacro()
