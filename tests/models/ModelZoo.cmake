# The model zoo of tests/models/, shared by the in-process numerics tests
# (tests/numerics) and the add_aot_target tests (tests/models/CMakeLists.txt).

# Set in every directory that includes this file (variables are per
# directory; the functions below are global).
set(AOT_MODELS_DIR ${CMAKE_CURRENT_LIST_DIR})
include_guard(GLOBAL)

# aot_model_zoo(OUT): the names of every model (NAME.mlir with NAME.py).
function(aot_model_zoo out)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/*.mlir)
  set(names)
  foreach(source IN LISTS sources)
    get_filename_component(name ${source} NAME_WE)
    if(NOT EXISTS ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${name}.py)
      message(FATAL_ERROR "model ${source} has no reference script ${name}.py")
    endif()
    list(APPEND names ${name})
  endforeach()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# aot_model_tolerance(NAME RTOL ATOL ULP): the tolerance a model's script
# states on its `# tolerance: rtol=R atol=A [ulp=N]` line (ULP -1: none).
function(aot_model_tolerance name rtol_out atol_out ulp_out)
  set(script ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${name}.py)
  file(STRINGS ${script} line REGEX "^# tolerance:")
  if(NOT line MATCHES "rtol=([^ ]+) atol=([^ ]+)")
    message(FATAL_ERROR "${script} states no '# tolerance: rtol=.. atol=..' line")
  endif()
  set(${rtol_out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${atol_out} ${CMAKE_MATCH_2} PARENT_SCOPE)
  set(ulp -1)
  if(line MATCHES "ulp=([0-9]+)")
    set(ulp ${CMAKE_MATCH_1})
  endif()
  set(${ulp_out} ${ulp} PARENT_SCOPE)
endfunction()

# aot_model_on_gpu(NAME OUT): FALSE for a model whose source says
# `// cuda: not yet: REASON` (the GPU back end cannot compile it yet; the
# reason stays beside the model), TRUE otherwise.
function(aot_model_on_gpu name out)
  file(STRINGS ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${name}.mlir line
       REGEX "^// cuda: not yet")
  if(line)
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()
