# campaign --time-budget: it prints how many runs it finished and the command that reruns
# exactly those; that command, run, writes the same campaign.json byte for byte. With
# --shard it is refused (exit 2, naming the flag).
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${SIM} campaign --time-budget 1 --seed 21 --parallel 2 --out ${WORK}/budget
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "campaign --time-budget 1 exited ${rc}:\n${out}")
endif()
if(NOT out MATCHES "time budget spent: ([0-9]+) runs \\(runs 0\\.\\.[0-9]+ of seed 21\\); rerun exactly these with:\n  trafikey-sim (campaign --runs [0-9]+ --seed 21) --out ")
  message(FATAL_ERROR "campaign --time-budget: no rerun command in:\n${out}")
endif()
set(runs ${CMAKE_MATCH_1})
separate_arguments(rerun UNIX_COMMAND "${CMAKE_MATCH_2}")
if(runs LESS 1)
  message(FATAL_ERROR "campaign --time-budget 1 finished no run")
endif()
execute_process(COMMAND ${SIM} ${rerun} --out ${WORK}/rerun RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
file(READ ${WORK}/budget/campaign.json a)
file(READ ${WORK}/rerun/campaign.json b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "the rerun of the ${runs} budgeted runs wrote another campaign.json")
endif()
execute_process(COMMAND ${SIM} campaign --time-budget 1 --shard 0/2 --out ${WORK}/x
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--time-budget")
  message(FATAL_ERROR "--time-budget with --shard: expected exit 2 naming the flag, got ${rc}:\n${err}")
endif()
