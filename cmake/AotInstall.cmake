# Install and export: `cmake --install` puts the libraries, the ABI and API
# headers, aot-compile, aot-testgen and a CMake package (MlirAotConfig.cmake
# with AotCompile.cmake beside it) under the prefix, so that an outside
# project needs only find_package(MlirAot CONFIG REQUIRED).
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(AOT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/MlirAot)

# Exported as MlirAot::<EXPORT_NAME>, the same names as the in-tree aliases.
set_target_properties(aot_abi_core PROPERTIES EXPORT_NAME abi_core)
set_target_properties(aot_abi PROPERTIES EXPORT_NAME abi)
set_target_properties(aot_support PROPERTIES EXPORT_NAME support)
set_target_properties(aot_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(aot_cuda_runtime PROPERTIES EXPORT_NAME cuda_runtime)
set_target_properties(aot_compiler PROPERTIES EXPORT_NAME compiler)
set_target_properties(aot-compile PROPERTIES EXPORT_NAME aot-compile)
set_target_properties(aot-run PROPERTIES EXPORT_NAME aot-run)
# The tools load libMLIR.so and libLLVM.so from LLVM's own directory, which is
# not on the loader's default path: keep it in the installed RPATH.
set_target_properties(aot-compile-driver aot-testgen aot-run PROPERTIES
  INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS aot_abi_core aot_abi aot_runtime aot_cuda_runtime aot_support
                aot_compiler
                aot_testmain aot-compile aot-testgen aot-run
  EXPORT MlirAotTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The compiler that aot-compile runs on a cache miss (codegen/Launcher.cpp
# looks for it there).
install(TARGETS aot-compile-driver
  RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/mlir-aot)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/abi/aot ${PROJECT_SOURCE_DIR}/include/aot
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
install(EXPORT MlirAotTargets
  NAMESPACE MlirAot::
  DESTINATION ${AOT_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/MlirAotConfig.cmake.in
  ${PROJECT_BINARY_DIR}/MlirAotConfig.cmake
  INSTALL_DESTINATION ${AOT_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/MlirAotConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/MlirAotConfig.cmake
  ${PROJECT_BINARY_DIR}/MlirAotConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/AotCompile.cmake
  DESTINATION ${AOT_INSTALL_CMAKEDIR})
# The back ends' stage tables, which add_aot_target reads.
install(FILES
  ${PROJECT_SOURCE_DIR}/lib/Backend/Cpu/Cpu.def
  ${PROJECT_SOURCE_DIR}/lib/Backend/Cuda/Cuda.def
  ${PROJECT_SOURCE_DIR}/lib/Backend/Host/Host.def
  DESTINATION ${AOT_INSTALL_CMAKEDIR}/backends)
