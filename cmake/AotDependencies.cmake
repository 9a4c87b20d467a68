# Finds what the build needs: LLVM/MLIR 22 (only for the compiler library), libzip
# (for .npz) and Eigen. The numpy interpreter is found by AotCompile.cmake.
include_guard(GLOBAL)

find_package(PkgConfig REQUIRED)
pkg_check_modules(AOT_LIBZIP REQUIRED IMPORTED_TARGET libzip)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
# ONNX in (Debian: libonnx-dev, libprotobuf-dev): optional, the importer is
# left out without it, or when AOT_ENABLE_ONNX is off, and says so when asked
# for a model.
option(AOT_ENABLE_ONNX
  "Build the ONNX importer where libonnx-dev and libprotobuf-dev are found" ON)
set(AOT_ONNX OFF)
if(AOT_ENABLE_ONNX)
  find_package(Protobuf QUIET)
  if(Protobuf_FOUND)
    find_package(ONNX CONFIG QUIET)
  endif()
  if(TARGET onnx AND TARGET onnx_proto)
    set(AOT_ONNX ON)
  else()
    message(STATUS "libonnx-dev not found: mlir-aot is built without the ONNX "
                   "importer")
  endif()
else()
  message(STATUS "AOT_ENABLE_ONNX is off: mlir-aot is built without the ONNX "
                 "importer")
endif()

# LLVM/MLIR 22 from Debian: the library and most tools link the shared
# libMLIR.so and libLLVM.so, which keeps links around a second and the build
# tree small.
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
  # The same libraries as static archives, which Debian ships beside the
  # shared ones, in one link group (they refer to each other in every
  # direction; only the members something uses are linked), for the
  # compiler's static link (AOT_COMPILER_STATIC_LINK, lib/CMakeLists.txt),
  # which aot-compile-driver takes. Empty where they are
  # missing. MLIR's and LLD's CMake targets cannot serve: even their static
  # libraries link libLLVM.so.
  set(AOT_STATIC_LLVM_LINK "")
  if(EXISTS "${LLVM_LIBRARY_DIR}/libMLIRIR.a" AND
     EXISTS "${LLVM_LIBRARY_DIR}/libLLVMCore.a" AND
     EXISTS "${LLVM_LIBRARY_DIR}/liblldELF.a")
    find_package(Threads REQUIRED)
    file(GLOB aot_static_archives "${LLVM_LIBRARY_DIR}/libMLIR*.a"
         "${LLVM_LIBRARY_DIR}/liblld*.a" "${LLVM_LIBRARY_DIR}/libLLVM*.a")
    set(AOT_STATIC_LLVM_LINK -Wl,--start-group ${aot_static_archives}
        -Wl,--end-group z zstd ${CMAKE_THREAD_LIBS_INIT}
        ${CMAKE_DL_LIBS})
  endif()
endmacro()
