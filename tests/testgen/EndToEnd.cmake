# End-to-end tests of generated test executables: aot-compile writes the
# object code, typed header and manifest of a model, its numpy script the
# reference .npz, aot-testgen the test file; the executable links them with
# MlirAot::testmain and runs as a ctest test.
set(aot_testgen_expect ${CMAKE_CURRENT_SOURCE_DIR}/ExpectOutput.cmake)

# aot_testgen_e2e(NAME MLIR SCRIPT [TESTGEN_ARGS args...])
# Builds the executable testgen_e2e_NAME; its reference is
# ${CMAKE_CURRENT_BINARY_DIR}/e2e/NAME/NAME.npz.
function(aot_testgen_e2e name mlir script)
  cmake_parse_arguments(PARSE_ARGV 3 ARG "" "" "TESTGEN_ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "aot_testgen_e2e: unexpected arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(module ${mlir} NAME_WE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/e2e/${name})
  set(object ${dir}/${module}.o)
  set(header ${dir}/${module}.h)
  set(manifest ${dir}/${module}.json)
  set(npz ${dir}/${name}.npz)
  set(test_cpp ${dir}/${name}_test.cpp)
  file(MAKE_DIRECTORY ${dir})

  add_custom_command(
    OUTPUT ${object} ${header} ${manifest}
    COMMAND aot-compile ${mlir} -o ${object} -o ${header} -o ${manifest}
    DEPENDS aot-compile ${mlir}
    COMMENT "aot-compile ${module}.mlir (testgen ${name})"
    VERBATIM)
  add_custom_command(
    OUTPUT ${npz}
    COMMAND ${AOT_NUMPY_PYTHON} ${script} ${npz}
    DEPENDS ${script} ${PROJECT_SOURCE_DIR}/tests/models/refutil.py
    COMMENT "numpy reference for ${name}"
    VERBATIM)
  add_custom_command(
    OUTPUT ${test_cpp}
    COMMAND aot-testgen --manifest=${manifest} --reference=${npz}
            --header=${module}.h -o ${test_cpp} ${ARG_TESTGEN_ARGS}
    DEPENDS aot-testgen ${manifest} ${npz}
    COMMENT "aot-testgen ${name}"
    VERBATIM)
  set_source_files_properties(${object} PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)

  add_executable(testgen_e2e_${name} ${test_cpp} ${object} ${header})
  target_include_directories(testgen_e2e_${name} PRIVATE ${dir})
  target_link_libraries(testgen_e2e_${name} PRIVATE
    MlirAot::testmain MlirAot::runtime m)
  # The manifest's "omp": code with parallel loops (the default --threads=0).
  if(AOT_OPENMP_LIBRARY)
    target_link_libraries(testgen_e2e_${name} PRIVATE ${AOT_OPENMP_LIBRARY})
  endif()
  target_compile_options(testgen_e2e_${name} PRIVATE
    $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra>)
endfunction()

# aot_testgen_expect(NAME EXIT status COMMAND cmd... [EXPECT regex...])
# A test that runs cmd and passes only on exit status `status` with output
# matching every regex (ExpectOutput.cmake).
function(aot_testgen_expect name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "EXIT" "COMMAND;EXPECT")
  if(NOT DEFINED ARG_EXIT OR NOT ARG_COMMAND OR ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "aot_testgen_expect: usage: aot_testgen_expect(NAME EXIT status COMMAND cmd... [EXPECT regex...])")
  endif()
  set(defines -DEXIT=${ARG_EXIT})
  set(n 0)
  foreach(regex IN LISTS ARG_EXPECT)
    math(EXPR n "${n} + 1")
    list(APPEND defines "-DEXPECT${n}=${regex}")
  endforeach()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} ${defines} -P ${aot_testgen_expect}
            -- ${ARG_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS testgen
    ENVIRONMENT_MODIFICATION AOT_REFERENCE=unset:)
endfunction()

set(models ${PROJECT_SOURCE_DIR}/tests/models)
set(inputs ${CMAKE_CURRENT_SOURCE_DIR}/Inputs)
set(e2e ${CMAKE_CURRENT_BINARY_DIR}/e2e)

# Dynamic dims, an integer function; every element type (i1 ... f64, bf16
# from uint16 bits) with exact results; several results, rank 0, results that
# alias arguments or each other; scalar arguments of every type; no result, a
# scalar result, a tuple with a scalar; mlir-tcp's Input0/Output0 keys.
aot_testgen_e2e(dynamic ${models}/dynamic.mlir ${models}/dynamic.py)
aot_testgen_e2e(dtypes ${models}/dtypes.mlir ${models}/dtypes.py
  TESTGEN_ARGS --rtol=0 --atol=0)
aot_testgen_e2e(identity_multi ${models}/identity_multi.mlir
  ${models}/identity_multi.py)
aot_testgen_e2e(scalars ${models}/scalars.mlir ${models}/scalars.py
  TESTGEN_ARGS --rtol=1e-6 --atol=1e-6)
aot_testgen_e2e(kinds ${inputs}/kinds.mlir ${inputs}/kinds.py)
aot_testgen_e2e(tcp_style ${inputs}/tcp_style.mlir ${inputs}/tcp_style.py)

foreach(name dynamic dtypes identity_multi kinds tcp_style)
  add_test(NAME testgen.e2e.${name}
    COMMAND testgen_e2e_${name} --reference=${e2e}/${name}/${name}.npz)
  set_tests_properties(testgen.e2e.${name} PROPERTIES LABELS testgen)
endforeach()
# The reference from the environment instead of the command line.
add_test(NAME testgen.e2e.scalars COMMAND testgen_e2e_scalars)
set_tests_properties(testgen.e2e.scalars PROPERTIES LABELS testgen
  ENVIRONMENT AOT_REFERENCE=${e2e}/scalars/scalars.npz)

# A reference spoiled five ways (Inputs/wrong_reference.py): every test case
# fails, each with a message naming its key.
set(wrong_npz ${e2e}/dynamic/wrong.npz)
add_custom_command(
  OUTPUT ${wrong_npz}
  COMMAND ${AOT_NUMPY_PYTHON} ${inputs}/wrong_reference.py
          ${e2e}/dynamic/dynamic.npz ${wrong_npz}
  DEPENDS ${inputs}/wrong_reference.py ${e2e}/dynamic/dynamic.npz
  COMMENT "a wrong reference for the dynamic model"
  VERBATIM)
add_custom_target(testgen_wrong_reference ALL DEPENDS ${wrong_npz})

set(exe $<TARGET_FILE:testgen_e2e_dynamic>)
aot_testgen_expect(testgen.e2e.wrong-reference EXIT 1
  COMMAND ${exe} --reference=${wrong_npz}
  EXPECT
    "wrong.npz: array 'dyn_axpb/arg0' holds f64 data, but the signature is tensor<\\?x\\?xf32>"
    "wrong.npz: array 'dyn_matmul/arg1' is missing \\(needed for tensor<\\?x\\?xf32>\\)"
    "wrong.npz: array 'dyn_rowsum/arg0' has shape \\[9, 5\\], but tensor<\\?x4xf32> needs dim 1 to be 4"
    "dyn_transpose/result0: 1 of 24 elements of f32 \\[8, 3\\] differ \\(rtol 1e-05, atol 1e-06\\); first at \\[2, 1\\]"
    "wrong.npz: array 'dyn_first_half_neg/result0' has shape \\[3, 3, 1\\] \\(rank 3\\), but tensor<\\?x3xi32> has rank 2"
    "test cases: 5 \\| 0 passed \\| 5 failed")

# The test main: no reference, an unreadable one, a malformed option; the
# options that only print need no reference.
aot_testgen_expect(testgen.main.no-reference EXIT 1
  COMMAND ${exe}
  EXPECT "error: no reference .npz: run .*testgen_e2e_dynamic --reference=FILE.npz or set AOT_REFERENCE")
aot_testgen_expect(testgen.main.missing-reference EXIT 1
  COMMAND ${exe} --reference=${e2e}/no-such-file.npz
  EXPECT "error: .*e2e/no-such-file.npz: cannot open for reading: No such file or directory")
aot_testgen_expect(testgen.main.not-an-npz EXIT 1
  COMMAND ${exe} --reference ${inputs}/tcp_style.py
  EXPECT "error: .*Inputs/tcp_style.py: cannot open as an .npz \\(zip\\) archive")
aot_testgen_expect(testgen.main.reference-twice EXIT 1
  COMMAND ${exe} --reference=a.npz --reference=b.npz
  EXPECT "error: --reference given twice: 'a.npz' and 'b.npz'")
aot_testgen_expect(testgen.main.reference-empty EXIT 1
  COMMAND ${exe} --reference=
  EXPECT "error: --reference needs a file name")
aot_testgen_expect(testgen.main.help EXIT 0
  COMMAND ${exe} --help
  EXPECT "usage: .*testgen_e2e_dynamic --reference=FILE.npz \\[doctest options\\]"
         "--list-test-cases")
aot_testgen_expect(testgen.main.list EXIT 0
  COMMAND ${exe} --list-test-cases
  EXPECT "dyn_axpb" "dyn_first_half_neg")
# doctest's own options still work next to --reference.
aot_testgen_expect(testgen.main.filter EXIT 1
  COMMAND ${exe} --test-case=dyn_axpb,dyn_transpose --reference=${wrong_npz}
  EXPECT "test cases: 2 \\| 0 passed \\| 2 failed \\| 3 skipped")
