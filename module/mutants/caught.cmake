# module.mutant.NAME: a differential campaign of RUNS runs (seed 1, two lanes) on a real
# server loaded with the wrong module host MUTANT must fail; its divergence, minimized, is
# a file that `scenario --differential` fails with MUTANT and passes with GOOD (the real
# trafikey.so): the sim and the module agree on it, only the mistake tells them apart.
# Prints the run that caught it and the minimal file's length (the note's numbers).
# Run with -DSIM=<trafikey-sim> -DMUTANT=<mutant.so> -DGOOD=<trafikey.so> -DRUNS=<n>
# -DWORK=<dir> -DSERVER_BIN_SCRIPT=<scenarios/tests/server_bin.cmake>.
include(${SERVER_BIN_SCRIPT})
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${SIM} campaign --differential --runs ${RUNS} --seed 1 --parallel 2
                        --server-bin ${SERVER_BIN} --module ${MUTANT} --shrink-budget 400 --out ${WORK}
                        --junit ${WORK}/junit.xml --report ${WORK}/report.html
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "not caught: the differential campaign of ${RUNS} runs exited ${rc}, not 1\n${err}")
endif()
string(REGEX MATCH "FAILED run ([0-9]+)" caught "${out}")
set(run ${CMAKE_MATCH_1})
string(REGEX MATCH "minimized from [0-9]+ steps \\([0-9]+ calls\\) to ([0-9]+) \\(([0-9]+) calls\\)" shrunk "${out}")
if(NOT caught OR NOT shrunk)
  message(FATAL_ERROR "the campaign failed but did not say which run, or did not minimize it:\n${out}\n${err}")
endif()
set(steps ${CMAKE_MATCH_1})
set(calls ${CMAKE_MATCH_2})
# The dashboard and JUnit show it as any campaign's failure: the run, the replay command.
file(READ ${WORK}/junit.xml junit)
if(NOT junit MATCHES "<failure" OR NOT junit MATCHES "scenario --differential")
  message(FATAL_ERROR "${WORK}/junit.xml carries no failure with its replay command")
endif()
file(READ ${WORK}/report.html report)
if(NOT report MATCHES "run ${run}" OR NOT report MATCHES "scenario --differential")
  message(FATAL_ERROR "${WORK}/report.html does not show run ${run} with its replay command")
endif()
foreach(module MUTANT GOOD)
  execute_process(COMMAND ${SIM} scenario --differential --server-bin ${SERVER_BIN} --module ${${module}}
                          ${WORK}/failure.scn
                  RESULT_VARIABLE replay_rc OUTPUT_VARIABLE replay_out ERROR_VARIABLE replay_err)
  if(module STREQUAL "MUTANT" AND NOT replay_rc EQUAL 1)
    message(FATAL_ERROR "the minimal file does not fail with the mutant (exit ${replay_rc}):\n${replay_out}${replay_err}")
  endif()
  if(module STREQUAL "GOOD" AND NOT replay_rc EQUAL 0)
    message(FATAL_ERROR "the minimal file fails with the real trafikey.so too (exit ${replay_rc}): it shows a "
                        "divergence of the sim, not the mutant's mistake:\n${replay_out}${replay_err}")
  endif()
endforeach()
math(EXPR needed "${run} + 1")
message("caught by run ${run} (${needed} of the ${RUNS} runs needed); minimal file: ${steps} steps, ${calls} calls")
