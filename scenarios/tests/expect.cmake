# expect(NAME RC LAST PATTERN ARGS...): runs ${SIM} ARGS in ${WORK} and checks its exit code,
# its last line (when LAST is not empty) and that its output matches PATTERN (when not empty).
function(expect name rc_want last_want pattern)
  execute_process(COMMAND ${SIM} ${ARGN} WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "\n$" "" trimmed "${out}")
  string(REGEX REPLACE ".*\n" "" last "${trimmed}")
  if(NOT rc EQUAL rc_want)
    message(FATAL_ERROR "${name}: exit ${rc}, expected ${rc_want}\n${out}${err}")
  endif()
  if(NOT last_want STREQUAL "" AND NOT last STREQUAL last_want)
    message(FATAL_ERROR "${name}: last line '${last}', expected '${last_want}'\n${out}")
  endif()
  if(NOT pattern STREQUAL "" AND NOT "${out}" MATCHES "${pattern}")
    message(FATAL_ERROR "${name}: output does not match '${pattern}':\n${out}")
  endif()
  message(STATUS "${name}: exit ${rc} as expected")
endfunction()
