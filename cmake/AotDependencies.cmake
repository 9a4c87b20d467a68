# Finds what the build needs: LLVM/MLIR 22 (only for the compiler library), libzip
# (for .npz), Eigen, doctest, and a Python interpreter that has numpy (tests only).
include_guard(GLOBAL)

find_package(PkgConfig REQUIRED)
pkg_check_modules(AOT_LIBZIP REQUIRED IMPORTED_TARGET libzip)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)

# The Python first on PATH may lack numpy; reference tensors must come from numpy,
# so probe candidates until one imports it.
function(aot_find_numpy_python out)
  set(candidates /usr/bin/python3)
  find_program(_aot_path_python python3)
  if(_aot_path_python)
    list(APPEND candidates ${_aot_path_python})
  endif()
  foreach(candidate IN LISTS candidates)
    if(EXISTS ${candidate})
      execute_process(COMMAND ${candidate} -c "import numpy"
                      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
      if(rc EQUAL 0)
        set(${out} ${candidate} PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

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
endmacro()
