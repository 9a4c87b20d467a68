# add_aot_target(): compiles an MLIR module or ONNX model (or a PyTorch model,
# exported to ONNX at build time) ahead of time at build time, through named
# stage targets, into a static library with a typed C++ header, and
# generates a doctest executable that checks the library against a reference
# .npz. Works in the build tree of mlir-aot (add_subdirectory) and from an
# installed copy (find_package(MlirAot CONFIG)). docs/cmake.md documents every
# argument; the comments here say why things are done the way they are.
include_guard(GLOBAL)

set(AOT_CACHE_DIR "${CMAKE_BINARY_DIR}/aot-cache" CACHE PATH
    "add_aot_target: the directory of aot-compile's artifact cache (empty: none)")

# LLVM's OpenMP runtime, which code compiled with THREADS other than 1 calls
# (__kmpc_fork_call): Debian's libomp-22-dev puts it beside LLVM 22. GCC's
# libgomp does not define those entry points, so FindOpenMP is no help.
find_library(AOT_OPENMP_LIBRARY NAMES omp
             HINTS ${LLVM_LIBRARY_DIR} /usr/lib/llvm-22/lib
             DOC "LLVM's OpenMP runtime (libomp), for THREADS")

# aot_find_numpy_python(OUT): the first Python interpreter that imports numpy,
# or "" if none does. The python3 first on PATH may lack numpy (reference
# tensors must come from numpy), so candidates are probed in turn, Debian's
# /usr/bin/python3 first.
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

# The interpreter that runs REFERENCE_SCRIPTs and TORCH_LOADERs: AOT_PYTHON
# if set, else the first one found with numpy. USER names the argument that
# needs it, for the message.
function(_aot_reference_python out user)
  if(NOT AOT_PYTHON)
    aot_find_numpy_python(found)
    if(NOT found)
      message(FATAL_ERROR
        "add_aot_target: ${user} needs a Python interpreter with "
        "numpy; none was found (Debian: apt install python3-numpy), or set "
        "AOT_PYTHON to one")
    endif()
    set(AOT_PYTHON ${found} CACHE FILEPATH
        "Python interpreter with numpy that runs add_aot_target reference scripts")
  endif()
  set(${out} ${AOT_PYTHON} PARENT_SCOPE)
endfunction()

# The mlir_aot Python package, whose command line (python3 -m mlir_aot.torch)
# a TORCH_LOADER runs: python/ beside this file's cmake/ in the source tree;
# once installed, PREFIX/lib/python3/dist-packages (python/CMakeLists.txt,
# AOT_PYTHON_INSTALL_DIR) while this file is in PREFIX/LIBDIR/cmake/MlirAot,
# LIBDIR being lib or lib/<triple>. Looked up here because inside a function
# CMAKE_CURRENT_LIST_DIR is the caller's; AOT_PYTHON_PACKAGE_DIR overrides it
# (a package installed elsewhere).
set(_aot_python_package_dir "")
foreach(candidate ${CMAKE_CURRENT_LIST_DIR}/../python
                  ${CMAKE_CURRENT_LIST_DIR}/../../python3/dist-packages
                  ${CMAKE_CURRENT_LIST_DIR}/../../../../lib/python3/dist-packages)
  if(NOT _aot_python_package_dir AND EXISTS ${candidate}/mlir_aot/torch.py)
    cmake_path(SET _aot_python_package_dir NORMALIZE ${candidate})
  endif()
endforeach()
set_property(GLOBAL PROPERTY AOT_PYTHON_PACKAGE_DIR "${_aot_python_package_dir}")
unset(_aot_python_package_dir)

# The directory holding the mlir_aot package, or "".
function(_aot_python_package_dir out)
  if(AOT_PYTHON_PACKAGE_DIR)
    set(${out} ${AOT_PYTHON_PACKAGE_DIR} PARENT_SCOPE)
  else()
    get_property(dir GLOBAL PROPERTY AOT_PYTHON_PACKAGE_DIR)
    set(${out} "${dir}" PARENT_SCOPE)
  endif()
endfunction()

# aot_check_torch_python(OUT_OK OUT_REASON): whether the interpreter that
# runs TORCH_LOADERs (AOT_PYTHON, else the first with numpy) imports torch,
# onnx and mlir_aot.torch with the PYTHONPATH the build step gives it; if
# not, OUT_REASON says why and what to install. Only a success is
# remembered (importing torch takes seconds): after installing torch, the
# next configure sees it.
function(aot_check_torch_python ok reason)
  set(${ok} FALSE PARENT_SCOPE)
  set(python ${AOT_PYTHON})
  if(NOT python)
    aot_find_numpy_python(python)
  endif()
  _aot_python_package_dir(package_dir)
  if(NOT python)
    string(CONCAT why "no Python interpreter with numpy was found (Debian: "
           "apt install python3-numpy python3-torch python3-onnx), or set "
           "AOT_PYTHON to one")
    set(${reason} "${why}" PARENT_SCOPE)
    return()
  endif()
  if(NOT package_dir)
    string(CONCAT why "the mlir_aot Python package was not found beside "
           "AotCompile.cmake; set AOT_PYTHON_PACKAGE_DIR to the directory "
           "that holds mlir_aot/")
    set(${reason} "${why}" PARENT_SCOPE)
    return()
  endif()
  if(_AOT_TORCH_PYTHON_CHECKED STREQUAL "${python}|${package_dir}")
    set(${ok} TRUE PARENT_SCOPE)
    return()
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${package_dir}
            PYTHONDONTWRITEBYTECODE=1
            ${python} -c "import torch, onnx, mlir_aot.torch"
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE error)
  if(NOT rc EQUAL 0)
    # The last line of the traceback: "ModuleNotFoundError: No module ...".
    string(STRIP "${error}" error)
    string(REGEX REPLACE ".*\n" "" error "${error}")
    string(CONCAT why "${python} cannot import torch and onnx (${error}); "
           "Debian: apt install python3-torch python3-onnx, or set "
           "AOT_PYTHON to an interpreter that has them")
    set(${reason} "${why}" PARENT_SCOPE)
    return()
  endif()
  set(_AOT_TORCH_PYTHON_CHECKED "${python}|${package_dir}" CACHE INTERNAL
      "The interpreter and mlir_aot package that import torch and onnx")
  set(${ok} TRUE PARENT_SCOPE)
endfunction()

# _aot_tool(TARGET OUT_COMMAND OUT_DEPENDS): how to run one of the project's
# tools. In the build tree the tool is a real target: depending on it by name
# orders the build and re-runs the step whenever the tool is relinked. An
# installed tool is an imported target: depend on its file.
function(_aot_tool tool out_command out_depends)
  if(NOT TARGET ${tool})
    message(FATAL_ERROR
      "add_aot_target: ${tool} is not defined; use find_package(MlirAot "
      "CONFIG REQUIRED) or add_subdirectory() on mlir-aot first")
  endif()
  get_target_property(aliased ${tool} ALIASED_TARGET)
  get_target_property(imported ${tool} IMPORTED)
  set(${out_command} $<TARGET_FILE:${tool}> PARENT_SCOPE)
  if(aliased)
    set(${out_depends} ${aliased} PARENT_SCOPE)
  elseif(imported)
    set(${out_depends} $<TARGET_FILE:${tool}> PARENT_SCOPE)
  else()
    set(${out_depends} ${tool} PARENT_SCOPE)
  endif()
endfunction()

# An argument that must be an existing file; relative paths are taken from
# the calling CMakeLists.txt's directory.
function(_aot_existing_file out argument value)
  cmake_path(ABSOLUTE_PATH value BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
             NORMALIZE OUTPUT_VARIABLE path)
  if(NOT EXISTS ${path} OR IS_DIRECTORY ${path})
    message(FATAL_ERROR "add_aot_target(${_aot_name}): ${argument} file "
                        "'${value}' does not exist (looked for ${path})")
  endif()
  set(${out} ${path} PARENT_SCOPE)
endfunction()

# The back ends' tables (stages; the host path's CPU architectures), read
# from the same files the C++ back ends include: lib/Backend/<Kind>/<Kind>.def
# in the source tree, backends/ beside this file once installed. Kept in a
# global property, so functions called from any directory find them.
set_property(GLOBAL PROPERTY AOT_BACKEND_TABLE_DIRS
  ${CMAKE_CURRENT_LIST_DIR}/backends ${CMAKE_CURRENT_LIST_DIR}/../lib/Backend)

# _aot_backend_table(KIND PREFIX): reads KIND's table (Cpu, Cuda, Host) and
# sets, in the caller, PREFIX_names / PREFIX_extensions / PREFIX_forms (one
# entry per stage, in order) and, for Host, PREFIX_arch_names /
# PREFIX_arch_regex.
function(_aot_backend_table kind prefix)
  get_property(dirs GLOBAL PROPERTY AOT_BACKEND_TABLE_DIRS)
  set(file)
  foreach(dir IN LISTS dirs)
    foreach(candidate ${dir}/${kind}.def ${dir}/${kind}/${kind}.def)
      if(NOT file AND EXISTS ${candidate})
        set(file ${candidate})
      endif()
    endforeach()
  endforeach()
  if(NOT file)
    message(FATAL_ERROR "add_aot_target: the ${kind} back end's table "
      "(${kind}.def) is missing from ${dirs}; reinstall mlir-aot")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  file(STRINGS ${file} lines REGEX "^AOT_")
  set(names)
  set(extensions)
  set(forms)
  set(arch_names)
  set(arch_patterns)
  foreach(line IN LISTS lines)
    if(line MATCHES "^AOT_STAGE\\([A-Za-z]+, \"([^\"]+)\", \"([^\"]+)\", ([A-Za-z]+),")
      list(APPEND names ${CMAKE_MATCH_1})
      list(APPEND extensions ${CMAKE_MATCH_2})
      list(APPEND forms ${CMAKE_MATCH_3})
    elseif(line MATCHES "^AOT_CPU_ARCH\\(([a-z0-9_]+), \"([^\"]+)\"\\)")
      list(APPEND arch_names ${CMAKE_MATCH_1})
      list(APPEND arch_patterns "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  list(JOIN arch_patterns "|" arch_regex)
  set(${prefix}_names ${names} PARENT_SCOPE)
  set(${prefix}_extensions ${extensions} PARENT_SCOPE)
  set(${prefix}_forms ${forms} PARENT_SCOPE)
  set(${prefix}_arch_names ${arch_names} PARENT_SCOPE)
  set(${prefix}_arch_regex "${arch_regex}" PARENT_SCOPE)
endfunction()

# _aot_stage_files(KIND MLIR_EXTENSION OUT): the dump file of every stage
# ("00-input.mlir" ...), as aot-compile --dump-stages names them.
function(_aot_stage_files kind mlir_extension out)
  _aot_backend_table(${kind} table)
  set(files)
  set(index 0)
  foreach(name IN LISTS table_names)
    list(GET table_extensions ${index} extension)
    list(GET table_forms ${index} form)
    if(form STREQUAL "Mlir")
      set(extension ${mlir_extension})
    endif()
    if(index LESS 10)
      set(number 0${index})
    else()
      set(number ${index})
    endif()
    list(APPEND files ${number}-${name}${extension})
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} ${files} PARENT_SCOPE)
endfunction()

# _aot_mlir_stages(KIND OUT): the MLIR stages whose passes may be replaced.
function(_aot_mlir_stages kind out)
  _aot_backend_table(${kind} table)
  set(mlir)
  set(index 0)
  foreach(name IN LISTS table_names)
    list(GET table_forms ${index} form)
    if(form STREQUAL "Mlir" AND NOT name STREQUAL "input")
      list(APPEND mlir ${name})
    endif()
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} ${mlir} PARENT_SCOPE)
endfunction()

# Configure-time checks of TARGET. aot-compile checks everything again (CPU
# names, features); this catches typos before anything is built.
function(_aot_check_target spec)
  if(spec STREQUAL "host")
    return()
  endif()
  if(spec MATCHES "^cuda:")
    if(NOT spec MATCHES "^cuda:sm_[0-9][0-9a-z]*(,ptx=[0-9]+)?(,features=[^,]+)?$")
      message(FATAL_ERROR "add_aot_target(${_aot_name}): unknown TARGET "
        "'${spec}': expected cuda:CHIP[,ptx=NN][,features=LIST] with CHIP "
        "a GPU architecture like sm_90")
    endif()
    return()
  endif()
  if(NOT spec MATCHES "^cpu:([^,]+)(,cpu=[^,]+)?(,features=.+)?$")
    message(FATAL_ERROR "add_aot_target(${_aot_name}): unknown TARGET "
      "'${spec}': expected host, cpu:TRIPLE[,cpu=NAME][,features=LIST] or "
      "cuda:CHIP[,ptx=NN][,features=LIST]")
  endif()
  set(triple ${CMAKE_MATCH_1})
  _aot_backend_table(Host host)
  if(NOT triple MATCHES "^(${host_arch_regex})(-|$)")
    list(JOIN host_arch_names ", " supported)
    message(FATAL_ERROR "add_aot_target(${_aot_name}): unknown TARGET "
      "'${spec}': the triple '${triple}' is not a supported CPU (${supported})")
  endif()
endfunction()

# The back end that compiles TARGET: Cpu or Cuda (the name of its table).
function(_aot_target_backend out spec)
  if(spec MATCHES "^cuda:")
    set(${out} Cuda PARENT_SCOPE)
  else()
    set(${out} Cpu PARENT_SCOPE)
  endif()
endfunction()

# Whether code for TARGET runs on this machine, so its test can run here.
# The host code of a cuda target is compiled for this machine; whether a
# GPU is there is asked when the test runs (it skips without one).
function(_aot_target_runs_here out spec)
  set(runs FALSE)
  if(spec STREQUAL "host" OR spec MATCHES "^cuda:")
    set(runs TRUE)
  elseif(spec MATCHES "^cpu:([^-,]+)")
    set(arch ${CMAKE_MATCH_1})
    string(TOLOWER "${CMAKE_HOST_SYSTEM_PROCESSOR}" host_arch)
    if(arch STREQUAL host_arch OR (arch STREQUAL "amd64" AND host_arch STREQUAL "x86_64")
       OR (arch STREQUAL "arm64" AND host_arch STREQUAL "aarch64"))
      set(runs TRUE)
    endif()
  endif()
  set(${out} ${runs} PARENT_SCOPE)
endfunction()

# _aot_torch_loader(LOADER PATHS OUT_PYTHONPATH OUT_FILE): checks a
# TORCH_LOADER MODULE:FUNCTION and finds MODULE's file in the PYTHONPATH
# directories PATHS (relative to the calling directory; default: that
# directory). The file is found here, not only by Python at build time, so
# that editing it re-exports the model.
function(_aot_torch_loader loader paths out_pythonpath out_file)
  set(name_regex "[A-Za-z_][A-Za-z0-9_]*")
  if(NOT loader MATCHES "^(${name_regex}(\\.${name_regex})*):(${name_regex})$")
    message(FATAL_ERROR "add_aot_target(${_aot_name}): TORCH_LOADER "
                        "'${loader}' must be MODULE:FUNCTION, e.g. "
                        "models.mlp:load")
  endif()
  set(module ${CMAKE_MATCH_1})
  string(REPLACE "." "/" module_path ${module})
  if(NOT paths)
    set(paths .)
  endif()
  set(pythonpath)
  set(searched)
  set(file)
  foreach(entry IN LISTS paths)
    cmake_path(ABSOLUTE_PATH entry BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
               NORMALIZE OUTPUT_VARIABLE directory)
    string(REGEX REPLACE "(.)/$" "\\1" directory "${directory}")
    if(NOT IS_DIRECTORY ${directory})
      message(FATAL_ERROR "add_aot_target(${_aot_name}): PYTHONPATH "
                          "directory '${entry}' does not exist (looked for "
                          "${directory})")
    endif()
    list(APPEND pythonpath ${directory})
    foreach(candidate ${directory}/${module_path}.py
                      ${directory}/${module_path}/__init__.py)
      list(APPEND searched ${candidate})
      if(NOT file AND EXISTS ${candidate})
        set(file ${candidate})
      endif()
    endforeach()
  endforeach()
  if(NOT file)
    list(JOIN searched ", " searched)
    message(FATAL_ERROR "add_aot_target(${_aot_name}): TORCH_LOADER module "
                        "'${module}' is in no PYTHONPATH directory (looked "
                        "for ${searched})")
  endif()
  set(${out_pythonpath} ${pythonpath} PARENT_SCOPE)
  set(${out_file} ${file} PARENT_SCOPE)
endfunction()

function(add_aot_target)
  set(flags DUMP_STAGES SKIP_TEST EXTERNAL_WEIGHTS)
  set(one NAME SOURCE INPUT_FORMAT TORCH_LOADER REFERENCE REFERENCE_SCRIPT
          TARGET OPT RTOL ATOL ULP EXTERNAL_WEIGHTS_MIN_BYTES THREADS)
  set(multi FUNCTIONS STAGE_PIPELINE LABELS REFERENCE_DEPENDS COMPILE_OPTIONS
            PYTHONPATH)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "${flags}" "${one}" "${multi}")

  # --- Arguments -----------------------------------------------------------
  set(_aot_name "${ARG_NAME}")
  if(NOT ARG_NAME)
    message(FATAL_ERROR "add_aot_target: NAME is required")
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "add_aot_target: NAME '${ARG_NAME}' must be a C "
                        "identifier (letters, digits, '_'): it names the "
                        "header's namespace aot_compiled::${ARG_NAME}")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    list(JOIN ARG_UNPARSED_ARGUMENTS " " unparsed)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): unknown arguments: "
                        "${unparsed}")
  endif()
  foreach(keyword IN LISTS ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): ${keyword} needs a value")
  endforeach()
  # TORCH_LOADER stands for both the source (its model, exported to ONNX
  # at build time) and the reference (PyTorch's outputs on its inputs).
  if(DEFINED ARG_TORCH_LOADER)
    foreach(excluded SOURCE INPUT_FORMAT REFERENCE REFERENCE_SCRIPT)
      if(DEFINED ARG_${excluded})
        message(FATAL_ERROR "add_aot_target(${ARG_NAME}): TORCH_LOADER "
          "excludes ${excluded}: the loader's model, exported to ONNX, is "
          "the source, and PyTorch's outputs on its inputs are the reference")
      endif()
    endforeach()
  elseif(NOT ARG_SOURCE)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): SOURCE (an .mlir, "
                        ".mlirbc or .onnx file) or TORCH_LOADER (a PyTorch "
                        "model) is required")
  endif()
  if(ARG_PYTHONPATH AND NOT DEFINED ARG_TORCH_LOADER)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): PYTHONPATH is only "
                        "meaningful with TORCH_LOADER")
  endif()
  if(ARG_REFERENCE AND ARG_REFERENCE_SCRIPT)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): give either REFERENCE "
                        "or REFERENCE_SCRIPT, not both")
  endif()
  if(ARG_REFERENCE_DEPENDS AND NOT ARG_REFERENCE_SCRIPT
     AND NOT DEFINED ARG_TORCH_LOADER)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): REFERENCE_DEPENDS is "
                        "only meaningful with REFERENCE_SCRIPT or TORCH_LOADER")
  endif()
  if(NOT ARG_REFERENCE AND NOT ARG_REFERENCE_SCRIPT
     AND NOT DEFINED ARG_TORCH_LOADER AND NOT ARG_SKIP_TEST)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): the generated test "
                        "needs REFERENCE or REFERENCE_SCRIPT; pass SKIP_TEST "
                        "to build only the library")
  endif()
  # The input format: what aot-compile makes of the source by its
  # extension (.onnx is ONNX, anything else MLIR) unless INPUT_FORMAT says.
  # Only the first step reads the source: the later ones read its MLIR.
  set(input_format_option)
  if(DEFINED ARG_INPUT_FORMAT)
    if(NOT ARG_INPUT_FORMAT MATCHES "^(mlir|onnx)$")
      message(FATAL_ERROR "add_aot_target(${ARG_NAME}): INPUT_FORMAT "
                          "'${ARG_INPUT_FORMAT}' must be mlir or onnx")
    endif()
    set(input_format_option --input-format=${ARG_INPUT_FORMAT})
    set(input_format ${ARG_INPUT_FORMAT})
  elseif(DEFINED ARG_TORCH_LOADER OR ARG_SOURCE MATCHES "\\.onnx$")
    set(input_format onnx)
  else()
    set(input_format mlir)
  endif()
  # AOT_ONNX is known in mlir-aot's own build tree; an installed aot-compile
  # built without the importer says so when it runs.
  if(input_format STREQUAL "onnx" AND DEFINED AOT_ONNX AND NOT AOT_ONNX)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): an ONNX model needs "
                        "the ONNX importer, which this mlir-aot was built "
                        "without (Debian: apt install libonnx-dev "
                        "libprotobuf-dev, then configure mlir-aot again)")
  endif()
  if(DEFINED ARG_TORCH_LOADER)
    _aot_torch_loader("${ARG_TORCH_LOADER}" "${ARG_PYTHONPATH}" pythonpath
                      loader_depends)
    foreach(extra IN LISTS ARG_REFERENCE_DEPENDS)
      _aot_existing_file(extra_path REFERENCE_DEPENDS ${extra})
      list(APPEND loader_depends ${extra_path})
    endforeach()
    aot_check_torch_python(torch_ok torch_reason)
    if(NOT torch_ok)
      message(FATAL_ERROR "add_aot_target(${ARG_NAME}): TORCH_LOADER needs "
                          "PyTorch and onnx at build time: ${torch_reason}")
    endif()
    _aot_reference_python(torch_python TORCH_LOADER)
    _aot_python_package_dir(python_package_dir)
    list(APPEND loader_depends ${python_package_dir}/mlir_aot/torch.py)
    # PyTorch computes in another order than the compiled code: float32
    # results differ in more than the last bits of the defaults.
    if(NOT DEFINED ARG_RTOL)
      set(ARG_RTOL 1e-4)
    endif()
    if(NOT DEFINED ARG_ATOL)
      set(ARG_ATOL 1e-5)
    endif()
  else()
    _aot_existing_file(source SOURCE ${ARG_SOURCE})
  endif()
  if(ARG_REFERENCE)
    _aot_existing_file(reference_source REFERENCE ${ARG_REFERENCE})
  elseif(ARG_REFERENCE_SCRIPT)
    _aot_existing_file(script REFERENCE_SCRIPT ${ARG_REFERENCE_SCRIPT})
    set(script_depends)
    foreach(extra IN LISTS ARG_REFERENCE_DEPENDS)
      _aot_existing_file(extra_path REFERENCE_DEPENDS ${extra})
      list(APPEND script_depends ${extra_path})
    endforeach()
  endif()
  set(target_spec host)
  if(DEFINED ARG_TARGET)
    set(target_spec ${ARG_TARGET})
  endif()
  _aot_check_target("${target_spec}")
  _aot_target_backend(backend "${target_spec}")
  set(opt 2)
  if(DEFINED ARG_OPT)
    if(NOT ARG_OPT MATCHES "^[0-3]$")
      message(FATAL_ERROR "add_aot_target(${ARG_NAME}): OPT '${ARG_OPT}' "
                          "must be 0, 1, 2 or 3")
    endif()
    set(opt ${ARG_OPT})
  endif()
  # The compiler's default, 0 (the OpenMP runtime's count when the code
  # runs), where the runtime can be linked; else sequential code.
  if(AOT_OPENMP_LIBRARY)
    set(threads 0)
  else()
    set(threads 1)
  endif()
  if(DEFINED ARG_THREADS)
    if(NOT ARG_THREADS MATCHES "^[0-9]+$")
      message(FATAL_ERROR "add_aot_target(${ARG_NAME}): THREADS "
                          "'${ARG_THREADS}' must be a thread count (0: the "
                          "OpenMP runtime's, 1: none)")
    endif()
    if(NOT ARG_THREADS EQUAL 1 AND NOT AOT_OPENMP_LIBRARY)
      message(FATAL_ERROR "add_aot_target(${ARG_NAME}): THREADS "
                          "${ARG_THREADS} needs LLVM's OpenMP runtime "
                          "(libomp), which was not found: install "
                          "libomp-22-dev or set AOT_OPENMP_LIBRARY")
    endif()
    set(threads ${ARG_THREADS})
  endif()
  # A first look at the tolerances, so that a typo stops the configure step.
  # They are forwarded to aot-testgen, which checks them again with the
  # option code it shares with aot-compile (lib/Support/ToolOptions.cpp):
  # what passes here but is still no finite number (1e999) fails the build
  # with the same message as on the command line.
  set(number_regex "^([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?$")
  foreach(tolerance RTOL ATOL)
    if(DEFINED ARG_${tolerance} AND NOT ARG_${tolerance} MATCHES "${number_regex}")
      message(FATAL_ERROR "add_aot_target(${ARG_NAME}): ${tolerance} "
                          "'${ARG_${tolerance}}' is not a non-negative number")
    endif()
  endforeach()
  if(DEFINED ARG_ULP AND NOT ARG_ULP MATCHES "^[0-9]+$")
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): ULP '${ARG_ULP}' is "
                        "not a non-negative integer")
  endif()
  set(stage_pipeline_options)
  _aot_mlir_stages(${backend} mlir_stages)
  list(JOIN mlir_stages "|" mlir_stage_regex)
  list(JOIN mlir_stages ", " mlir_stage_list)
  foreach(entry IN LISTS ARG_STAGE_PIPELINE)
    if(NOT entry MATCHES "^(${mlir_stage_regex})=(.+)$")
      message(FATAL_ERROR "add_aot_target(${ARG_NAME}): STAGE_PIPELINE "
        "'${entry}' must be STAGE=PASSES with STAGE one of the MLIR stages "
        "${mlir_stage_list}")
    endif()
    list(APPEND stage_pipeline_options "--stage-pipeline=${entry}")
  endforeach()

  # -g is the one short option: the debug info it adds to the LLVM dialect
  # travels through the later steps in the files themselves.
  foreach(option IN LISTS ARG_COMPILE_OPTIONS)
    if(NOT option MATCHES "^(--[a-z]|-g$)")
      message(FATAL_ERROR "add_aot_target(${ARG_NAME}): COMPILE_OPTIONS "
        "'${option}' is not an aot-compile option (--name, --name=value or -g)")
    endif()
  endforeach()

  _aot_tool(MlirAot::aot-compile compile compile_depends)

  # --- Stages ----------------------------------------------------------------
  # Every file lives in aot/NAME/ of the calling directory's build tree. The
  # CPU chain mirrors aot_compile's stages: LLVM-dialect MLIR, then LLVM IR,
  # then host assembly and, from the same LLVM IR, the object, header and
  # manifest. The CUDA chain stops once after its last MLIR stage (kernels
  # in NVVM, host code in the LLVM dialect); the second step makes the PTX,
  # cubin and host object, which embeds them.
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/aot/${ARG_NAME})
  set(base ${dir}/${ARG_NAME})
  set(asm ${base}.s)
  set(object ${base}.o)
  set(header ${base}.h)
  set(manifest ${base}.manifest.json)
  set(reference ${base}.npz)
  if(DEFINED ARG_TORCH_LOADER)
    # One run of the loader writes the model and, for the test, PyTorch's
    # outputs on its inputs; each file is rewritten only when it changes.
    set(source ${base}.onnx)
    set(torch_outputs ${source})
    set(torch_reference_option)
    set(made "ONNX")
    if(NOT ARG_SKIP_TEST)
      # The sample inputs, and random ones with every dynamic dim at
      # another size (the sample again where no dim is dynamic): the
      # generated test runs on each.
      set(other_reference ${base}.other_sizes.npz)
      list(APPEND torch_outputs ${reference} ${other_reference})
      set(torch_reference_option --reference=${reference}
                                 --other-sizes=${other_reference})
      set(made "ONNX and reference tensors")
    endif()
    set(pythonpath_options)
    foreach(entry IN LISTS pythonpath)
      list(APPEND pythonpath_options --pythonpath=${entry})
    endforeach()
    # Bytecode caches stay out of the loader's (source) directory.
    add_custom_command(OUTPUT ${torch_outputs}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${python_package_dir}
              PYTHONDONTWRITEBYTECODE=1
              ${torch_python} -m mlir_aot.torch --loader=${ARG_TORCH_LOADER}
              ${pythonpath_options} --onnx=${source} ${torch_reference_option}
      DEPENDS ${loader_depends}
      COMMENT "aot ${ARG_NAME}: ${ARG_TORCH_LOADER} -> ${made}"
      VERBATIM)
    add_custom_target(gen_${ARG_NAME}_onnx DEPENDS ${torch_outputs})
    set(shown_source ${ARG_NAME}.onnx)
  else()
    file(RELATIVE_PATH shown_source ${CMAKE_SOURCE_DIR} ${source})
  endif()
  # External weights leave the code on its way to LLVM IR.
  set(weights_options)
  set(weights_outputs)
  if(ARG_EXTERNAL_WEIGHTS_MIN_BYTES AND NOT ARG_EXTERNAL_WEIGHTS)
    message(FATAL_ERROR "add_aot_target(${ARG_NAME}): "
                        "EXTERNAL_WEIGHTS_MIN_BYTES needs EXTERNAL_WEIGHTS")
  endif()
  if(ARG_EXTERNAL_WEIGHTS)
    set(weights_outputs ${base}.safetensors)
    set(weights_options --external-weights=${base}.safetensors)
    if(DEFINED ARG_EXTERNAL_WEIGHTS_MIN_BYTES)
      if(NOT ARG_EXTERNAL_WEIGHTS_MIN_BYTES MATCHES "^[1-9][0-9]*$")
        message(FATAL_ERROR "add_aot_target(${ARG_NAME}): "
          "EXTERNAL_WEIGHTS_MIN_BYTES '${ARG_EXTERNAL_WEIGHTS_MIN_BYTES}' is "
          "not a size in bytes of 1 or more")
      endif()
      list(APPEND weights_options
           --external-weights-min-bytes=${ARG_EXTERNAL_WEIGHTS_MIN_BYTES})
    endif()
  endif()
  # Outputs that come out the same are left alone, so a new aot-compile
  # that makes the same code rebuilds nothing downstream.
  set(common --target=${target_spec} -O${opt} --threads=${threads}
             --module-name=${ARG_NAME} --write-if-changed)
  # The artifact cache: a rebuild after `ninja clean`, or the same model in
  # another target, reuses the compiles of the same input, options and
  # compiler. Empty AOT_CACHE_DIR: no cache.
  if(AOT_CACHE_DIR)
    list(APPEND common --cache-dir=${AOT_CACHE_DIR})
  endif()

  # The stage dumps each step writes, by the form of the stage (names from
  # the back end's table): MLIR stages in the first step; for the CPU chain
  # the LLVM IR stages in the second and the rest in the third, for the CUDA
  # chain everything after the MLIR stages in the second.
  set(stages_mlir)
  set(stages_llvm_ir)
  set(stages_backend)
  set(dump)
  if(ARG_DUMP_STAGES)
    set(stages ${dir}/stages)
    set(dump --dump-stages=${stages})
    # The MLIR stages come out as bytecode when COMPILE_OPTIONS say so.
    set(mlir_extension .mlir)
    if("--stage-format=bytecode" IN_LIST ARG_COMPILE_OPTIONS)
      set(mlir_extension .mlirbc)
    endif()
    _aot_stage_files(${backend} ${mlir_extension} stage_files)
    _aot_backend_table(${backend} table)
    set(index 0)
    foreach(file IN LISTS stage_files)
      list(GET table_forms ${index} form)
      if(form STREQUAL "Mlir")
        list(APPEND stages_mlir ${stages}/${file})
      elseif(form STREQUAL "LlvmIr" AND backend STREQUAL "Cpu")
        list(APPEND stages_llvm_ir ${stages}/${file})
      else()
        list(APPEND stages_backend ${stages}/${file})
      endif()
      math(EXPR index "${index} + 1")
    endforeach()
  endif()

  if(backend STREQUAL "Cuda")
    # In a folder of its own, beside the host route's files.
    set(nvvm ${dir}/nvvm/${ARG_NAME}.mlir)
    # The switches that act once the kernels are made (line info in the
    # PTX and cubin, kernel dumps, substitutions) go to both steps.
    set(kernel_options)
    foreach(option IN LISTS ARG_COMPILE_OPTIONS)
      if(option MATCHES "^(-g|--debug-info=.*|--dump-kernels=.*|--substitute-kernel=.*)$")
        list(APPEND kernel_options ${option})
      endif()
    endforeach()
    add_custom_command(OUTPUT ${nvvm} ${stages_mlir}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}/nvvm
      COMMAND ${compile} ${source} ${input_format_option} --compile-to=nvvm
              ${common}
              ${stage_pipeline_options} ${ARG_COMPILE_OPTIONS} ${dump}
              -o ${nvvm}
      DEPENDS ${source} ${compile_depends}
      COMMENT "aot ${ARG_NAME}: ${shown_source} -> GPU kernels in NVVM"
      VERBATIM)
    add_custom_command(
      OUTPUT ${asm} ${object} ${header} ${manifest} ${stages_backend}
             ${weights_outputs}
      COMMAND ${compile} ${nvvm} --compile-from=ptx ${common}
              ${weights_options} ${kernel_options} ${dump}
              -o ${asm} -o ${object} -o ${header} -o ${manifest}
      DEPENDS ${nvvm} ${compile_depends}
      COMMENT "aot ${ARG_NAME}: NVVM -> PTX, cubin, host object, header"
      VERBATIM)
    add_custom_target(gen_${ARG_NAME}_nvvm DEPENDS ${nvvm})
  else()
    set(mlir_llvm ${base}.mlir_llvm.mlir)
    set(llvm_ir ${base}.ll)
    add_custom_command(OUTPUT ${mlir_llvm} ${stages_mlir}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${compile} ${source} ${input_format_option} --compile-to=llvm
              ${common}
              ${stage_pipeline_options} ${ARG_COMPILE_OPTIONS} ${dump}
              -o ${mlir_llvm}
      DEPENDS ${source} ${compile_depends}
      COMMENT "aot ${ARG_NAME}: ${shown_source} -> LLVM dialect"
      VERBATIM)
    add_custom_command(OUTPUT ${llvm_ir} ${stages_llvm_ir} ${weights_outputs}
      COMMAND ${compile} ${mlir_llvm} --compile-from=llvm-ir
              --compile-to=llvm-ir-opt ${common} ${weights_options}
              ${dump} -o ${llvm_ir}
      DEPENDS ${mlir_llvm} ${compile_depends}
      COMMENT "aot ${ARG_NAME}: LLVM dialect -> LLVM IR"
      VERBATIM)
    add_custom_command(OUTPUT ${asm} ${object} ${header} ${manifest} ${stages_backend}
      COMMAND ${compile} ${llvm_ir} --compile-from=asm ${common} ${dump}
              -o ${asm} -o ${object} -o ${header} -o ${manifest}
      DEPENDS ${llvm_ir} ${compile_depends}
      COMMENT "aot ${ARG_NAME}: LLVM IR -> assembly, object, header"
      VERBATIM)
    add_custom_target(gen_${ARG_NAME}_mlir_llvm DEPENDS ${mlir_llvm})
    add_custom_target(gen_${ARG_NAME}_llvm_ir DEPENDS ${llvm_ir})
  endif()
  add_custom_target(gen_${ARG_NAME}_host_asm DEPENDS ${asm} ${object} ${header}
                                                     ${manifest})

  # The library: the object code, the header beside it, and what the code
  # may call (memrefCopy in MlirAot::runtime, libm for math functions; the
  # GPU runtime, which opens the CUDA driver at run time, for a cuda
  # target). The header needs only the pure ABI, so neither libzip nor
  # Eigen comes along.
  add_library(aot_compiled_${ARG_NAME} STATIC ${object} ${header})
  set_target_properties(aot_compiled_${ARG_NAME} PROPERTIES LINKER_LANGUAGE CXX)
  target_include_directories(aot_compiled_${ARG_NAME} PUBLIC ${dir})
  if(backend STREQUAL "Cuda")
    target_link_libraries(aot_compiled_${ARG_NAME} PUBLIC MlirAot::cuda_runtime)
  endif()
  target_link_libraries(aot_compiled_${ARG_NAME} PUBLIC MlirAot::abi_core
                        MlirAot::runtime m)
  # Parallel loops call libomp (the manifest's link lists "omp").
  if(NOT threads EQUAL 1)
    target_link_libraries(aot_compiled_${ARG_NAME} PUBLIC ${AOT_OPENMP_LIBRARY})
  endif()
  add_dependencies(aot_compiled_${ARG_NAME} gen_${ARG_NAME}_host_asm)

  if(ARG_SKIP_TEST)
    return()
  endif()
  _aot_target_runs_here(runs_here "${target_spec}")

  # --- Reference and test ----------------------------------------------------
  # A TORCH_LOADER's reference comes with its model (see Stages).
  if(ARG_REFERENCE)
    add_custom_command(OUTPUT ${reference}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${CMAKE_COMMAND} -E copy ${reference_source} ${reference}
      DEPENDS ${reference_source}
      COMMENT "aot ${ARG_NAME}: reference tensors"
      VERBATIM)
  elseif(ARG_REFERENCE_SCRIPT)
    _aot_reference_python(python REFERENCE_SCRIPT)
    add_custom_command(OUTPUT ${reference}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${python} ${script} ${reference}
      DEPENDS ${script} ${script_depends}
      COMMENT "aot ${ARG_NAME}: reference tensors from ${ARG_REFERENCE_SCRIPT}"
      VERBATIM)
  endif()
  add_custom_target(gen_${ARG_NAME}_reference_tensors DEPENDS ${reference})

  _aot_tool(MlirAot::aot-testgen testgen testgen_depends)
  set(test_name ${ARG_NAME}_compile_execute_test)
  set(test_source ${dir}/${test_name}.cpp)
  set(testgen_options)
  foreach(tolerance RTOL ATOL ULP)
    if(DEFINED ARG_${tolerance})
      string(TOLOWER ${tolerance} option)
      list(APPEND testgen_options --${option}=${ARG_${tolerance}})
    endif()
  endforeach()
  if(ARG_FUNCTIONS)
    list(JOIN ARG_FUNCTIONS "," functions)
    list(APPEND testgen_options --functions=${functions})
  endif()
  add_custom_command(OUTPUT ${test_source}
    COMMAND ${testgen} --manifest=${manifest} --reference=${reference}
            --header=${ARG_NAME}.h ${testgen_options} -o ${test_source}
    DEPENDS ${manifest} ${reference} ${testgen_depends}
    COMMENT "aot ${ARG_NAME}: generating ${test_name}.cpp"
    VERBATIM)
  add_custom_target(gen_${ARG_NAME}_execute_test DEPENDS ${test_source})

  add_executable(${test_name} ${test_source})
  target_link_libraries(${test_name} PRIVATE aot_compiled_${ARG_NAME}
                        MlirAot::testmain)
  # Half of a generated test's compile is parsing doctest and the abi
  # headers: a project with many of them builds that once (docs/cmake.md).
  if(AOT_GENERATED_TEST_PCH)
    target_precompile_headers(${test_name} REUSE_FROM ${AOT_GENERATED_TEST_PCH})
  endif()
  if(NOT runs_here)
    message(STATUS "add_aot_target(${ARG_NAME}): code for ${target_spec} "
                   "does not run on this ${CMAKE_HOST_SYSTEM_PROCESSOR} "
                   "machine; ${test_name} is built but not registered with CTest")
    return()
  endif()
  # The reference is an argument, not a path compiled into the test, so the
  # executable can be pointed at another .npz by hand.
  add_test(NAME ${test_name}
           COMMAND ${test_name} --reference=${reference})
  set(tests ${test_name})
  if(DEFINED ARG_TORCH_LOADER)
    add_test(NAME ${test_name}_other_sizes
             COMMAND ${test_name} --reference=${other_reference})
    list(APPEND tests ${test_name}_other_sizes)
  endif()
  set(labels aot_tests ${ARG_LABELS})
  if(backend STREQUAL "Cuda")
    # Without a usable GPU the test says why and exits with 77: skipped.
    list(APPEND labels gpu)
    set_tests_properties(${tests} PROPERTIES SKIP_RETURN_CODE 77)
  endif()
  set_tests_properties(${tests} PROPERTIES LABELS "${labels}")
endfunction()
