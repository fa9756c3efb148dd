# campaign speaks briefly: a passing campaign prints at most 15 lines (stdout and stderr, not
# on a terminal): the banner, runs, invariants, coverage as "N of M targets reached", what
# was never reached, the files, the result. --coverage adds the table of every target, and
# --help names it; campaign.json is the same either way.
file(REMOVE_RECURSE ${WORK})
set(flag_full --coverage)
foreach(way brief full)
  set(flag "${flag_${way}}")
  execute_process(COMMAND ${SIM} campaign --runs 300 --seed 31 --parallel 2 ${flag} --out ${WORK}/${way}
                          --report ${WORK}/${way}/report.html
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "campaign ${flag} exited ${rc}:\n${out}\n${err}")
  endif()
  string(REGEX MATCHALL "\n" newlines "${out}${err}")
  list(LENGTH newlines lines)
  string(REGEX MATCH "coverage    ([0-9]+) of ([0-9]+) targets reached" coverage "${out}")
  if(coverage STREQUAL "")
    message(FATAL_ERROR "campaign ${flag}: no 'coverage    N of M targets reached' line:\n${out}")
  endif()
  set(targets ${CMAKE_MATCH_2})
  foreach(expected "\nruns        300 passed \\(30 of them twice for determinism\\), [0-9]+ calls, [0-9.]+ s\n"
                   "\ninvariants  [0-9]+ of [0-9]+ judged, [0-9]+ times"
                   "not drawn by this campaign's plans: situation large-run\n"
                   "\nreport      [^\n]*report.html\n" "\n300 passed, 0 failed\n$")
    if(NOT out MATCHES "${expected}")
      message(FATAL_ERROR "campaign ${flag}: no line matching '${expected}':\n${out}")
    endif()
  endforeach()
  string(REGEX MATCHALL "\n  (verdict|edge|fault|situation) +[^ \n]+ +[0-9]+" rows "${out}")
  list(LENGTH rows rows)
  if(way STREQUAL "brief")
    if(lines GREATER 15)
      message(FATAL_ERROR "campaign printed ${lines} lines (at most 15):\n${out}${err}")
    endif()
    if(NOT rows EQUAL 0)
      message(FATAL_ERROR "campaign without --coverage printed the coverage table:\n${out}")
    endif()
  elseif(NOT rows EQUAL targets)
    message(FATAL_ERROR "campaign --coverage printed ${rows} target rows, not ${targets}:\n${out}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/brief/campaign.json ${WORK}/full/campaign.json
                RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "campaign --coverage wrote another campaign.json")
endif()
execute_process(COMMAND ${SIM} campaign --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT help MATCHES "--coverage +Print every coverage target")
  message(FATAL_ERROR "campaign --help does not name --coverage:\n${help}")
endif()
