# aot_add_lit_suite(): one ctest test that runs a directory of lit tests
# against aot-compile. Used by tests/cli and tests/bad_input.
include_guard(GLOBAL)

find_program(AOT_LIT NAMES lit llvm-lit HINTS /usr/lib/llvm-22/bin
  DOC "lit, the LLVM test runner (Debian: llvm-22-tools)")
find_program(AOT_FILECHECK NAMES FileCheck HINTS /usr/lib/llvm-22/bin
  DOC "FileCheck (Debian: llvm-22-tools)")

# aot_add_lit_suite(NAME name LABEL label)
# The lit.cfg.py of the calling directory configures the suite; the site
# configuration generated here gives it the paths of this build.
function(aot_add_lit_suite)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;LABEL" "")
  if(NOT ARG_NAME OR NOT ARG_LABEL OR ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "aot_add_lit_suite: usage: aot_add_lit_suite(NAME name LABEL label)")
  endif()
  if(NOT AOT_LIT OR NOT AOT_FILECHECK)
    message(WARNING "lit or FileCheck not found (Debian: install llvm-22-tools): "
                    "the '${ARG_NAME}' tests are not run")
    return()
  endif()
  # The directory of this file, tests/cli: the site template and the CLI
  # suite's lit.cfg.py live there.
  set(cli_dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  get_filename_component(AOT_LLVM_TOOLS_DIR ${AOT_FILECHECK} DIRECTORY)
  set(AOT_LIT_SUITE_NAME ${ARG_NAME})
  set(AOT_MODELS_DIR ${MlirAot_SOURCE_DIR}/tests/models)
  set(AOT_ABI_INCLUDE_DIR ${MlirAot_SOURCE_DIR}/abi)
  set(AOT_CLI_SOURCE_DIR ${cli_dir})
  set(AOT_LIT_SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR})

  # One site configuration per build configuration: the path of aot-compile
  # is a generator expression.
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    set(site_dir ${CMAKE_CURRENT_BINARY_DIR}/$<CONFIG>)
  else()
    set(site_dir ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(AOT_LIT_EXEC_ROOT ${site_dir})
  configure_file(${cli_dir}/lit.site.cfg.py.in
                 ${CMAKE_CURRENT_BINARY_DIR}/lit.site.cfg.py.configured @ONLY)
  file(GENERATE OUTPUT ${site_dir}/lit.site.cfg.py
       INPUT ${CMAKE_CURRENT_BINARY_DIR}/lit.site.cfg.py.configured)

  add_test(NAME ${ARG_NAME} COMMAND ${AOT_LIT} -sv ${site_dir})
  set_tests_properties(${ARG_NAME} PROPERTIES LABELS ${ARG_LABEL})
endfunction()
