# cmake -DBUILD_DIR=.. -DPREFIX=.. -DLIBDIR=.. -P install.cmake
# Installs the build into a fresh PREFIX and checks the tree has what an
# outside project needs.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                COMMAND_ERROR_IS_FATAL ANY)
foreach(f bin/aot-compile bin/aot-testgen
          ${LIBDIR}/libMlirAotCompiler.a ${LIBDIR}/libaot_runtime.a
          ${LIBDIR}/libaot_testmain.a
          ${LIBDIR}/cmake/MlirAot/MlirAotConfig.cmake
          ${LIBDIR}/cmake/MlirAot/MlirAotConfigVersion.cmake
          ${LIBDIR}/cmake/MlirAot/MlirAotTargets.cmake
          ${LIBDIR}/cmake/MlirAot/AotCompile.cmake
          include/aot/abi/MemRef.h include/aot/testing/Reference.h
          include/aot/Compiler.h)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "the install tree lacks ${f}")
  endif()
endforeach()
message(STATUS "installed into ${PREFIX}")
