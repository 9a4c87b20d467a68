# Runs a command and passes only if it exits with status EXIT and its output
# (stdout and stderr together) matches every regular expression EXPECT1,
# EXPECT2, ... (up to EXPECT9). A crash or hang is never a pass.
#   cmake -DEXIT=1 "-DEXPECT1=regex" ... -P ExpectOutput.cmake -- COMMAND ARGS...
if(NOT DEFINED EXIT)
  message(FATAL_ERROR "ExpectOutput.cmake: set EXIT")
endif()
set(command)
set(seen_separator OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(seen_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(seen_separator ON)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "ExpectOutput.cmake: no command after --")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE out TIMEOUT 120)
message("${out}")
if(NOT "${status}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status '${status}', expected ${EXIT}")
endif()
foreach(n RANGE 1 9)
  if(DEFINED EXPECT${n} AND NOT out MATCHES "${EXPECT${n}}")
    message(FATAL_ERROR "the output does not match '${EXPECT${n}}'")
  endif()
endforeach()
