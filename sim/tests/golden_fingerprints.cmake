# Golden fingerprints: the same seeds keep giving the same histories across code changes
# (speed work must not change what a run does). Each line of golden_fingerprints.txt is
# `<persistence> <seed> <fingerprint>` for
#   trafikey-sim run --seed S --jobs 60 --persistence P --faults <every kind>
# A change that means to alter histories regenerates the file with
#   cmake -DSIM=build/bin/trafikey-sim -DWORK=/tmp/golden -DREGENERATE=ON \
#         -P sim/tests/golden_fingerprints.cmake
# and says why in its commit message.
cmake_policy(SET CMP0007 NEW)
set(faults restart,failover,clock,death,pause,lost_reply,epoch,ghost,lane)
set(golden ${CMAKE_CURRENT_LIST_DIR}/golden_fingerprints.txt)
file(REMOVE_RECURSE ${WORK})
set(lines "")
foreach(persistence always everysec snapshot none)
  foreach(seed RANGE 1 12)
    execute_process(COMMAND ${SIM} run --seed ${seed} --jobs 60 --persistence ${persistence}
                            --faults ${faults} --out ${WORK}/run
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(REGEX MATCH "fingerprint ([0-9a-f]+)\n$" last "${out}")
    if(NOT rc EQUAL 0 OR last STREQUAL "")
      message(FATAL_ERROR "run --seed ${seed} --persistence ${persistence} exited ${rc}:\n${out}${err}")
    endif()
    string(APPEND lines "${persistence} ${seed} ${CMAKE_MATCH_1}\n")
  endforeach()
endforeach()
if(REGENERATE)
  file(WRITE ${golden} "${lines}")
  message(STATUS "wrote ${golden}")
  return()
endif()
file(READ ${golden} expected)
if(NOT lines STREQUAL expected)
  string(REPLACE "\n" ";" got_list "${lines}")
  string(REPLACE "\n" ";" want_list "${expected}")
  foreach(got IN LISTS got_list)
    list(FIND want_list "${got}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "history changed: this run's fingerprint is not the golden one:\n  ${got}\n"
                          "(golden: ${golden}; see its header for how to regenerate on purpose)")
    endif()
  endforeach()
  message(FATAL_ERROR "golden fingerprints differ from this build's (${golden})")
endif()
