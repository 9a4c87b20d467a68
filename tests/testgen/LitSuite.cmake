# The lit suite of aot-testgen: one ctest test running every *.test file
# here. The site configuration, generated per build, gives the paths of the
# tools; lit.cfg.py takes the shared tools and substitutions of the CLI suite
# (tests/cli/lit.cfg.py) and adds those of aot-testgen.
include(${PROJECT_SOURCE_DIR}/tests/cli/AotLitSuite.cmake) # AOT_LIT, AOT_FILECHECK

if(NOT AOT_LIT OR NOT AOT_FILECHECK)
  message(WARNING "lit or FileCheck not found (Debian: install llvm-22-tools): "
                  "the aot-testgen lit tests are not run")
  return()
endif()

get_filename_component(AOT_LLVM_TOOLS_DIR ${AOT_FILECHECK} DIRECTORY)
set(AOT_MODELS_DIR ${PROJECT_SOURCE_DIR}/tests/models)
set(AOT_ABI_INCLUDE_DIR ${PROJECT_SOURCE_DIR}/abi)
set(AOT_CLI_SOURCE_DIR ${PROJECT_SOURCE_DIR}/tests/cli)
set(AOT_LIT_SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR})

get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
if(multi_config)
  set(site_dir ${CMAKE_CURRENT_BINARY_DIR}/lit/$<CONFIG>)
else()
  set(site_dir ${CMAKE_CURRENT_BINARY_DIR}/lit)
endif()
set(AOT_LIT_EXEC_ROOT ${site_dir})
configure_file(lit.site.cfg.py.in
               ${CMAKE_CURRENT_BINARY_DIR}/lit.site.cfg.py.configured @ONLY)
file(GENERATE OUTPUT ${site_dir}/lit.site.cfg.py
     INPUT ${CMAKE_CURRENT_BINARY_DIR}/lit.site.cfg.py.configured)

add_test(NAME testgen.lit COMMAND ${AOT_LIT} -sv ${site_dir})
set_tests_properties(testgen.lit PROPERTIES LABELS testgen)
