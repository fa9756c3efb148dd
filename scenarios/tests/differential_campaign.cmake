# The differential campaign at its CI budget (issue 33): generated runs, each on the sim
# and on a real server the command starts, every reply and the final keyspace compared.
# `trafikey-sim campaign --differential --runs RUNS --seed 1 --parallel 2 --server-bin
# SERVER --out WORK`; the server is chosen when the test runs (server_bin.cmake). A
# divergence exits 1 and prints the run, the call, both sides and the reproducing command.
# Then, as any campaign: its campaign.json counts every run, and two shards of a small one
# merge into the bytes the whole of it writes (and not with a sim campaign's shard).
# Run with -DSIM=<trafikey-sim> -DWORK=<dir> -DRUNS=<n>.
include(${CMAKE_CURRENT_LIST_DIR}/server_bin.cmake)
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${SIM} campaign --differential --runs ${RUNS} --seed 1 --parallel 2
                        --server-bin ${SERVER_BIN} --out ${WORK}/all --junit ${WORK}/all/junit.xml
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "trafikey-sim campaign --differential exited ${rc}")
endif()
file(READ ${WORK}/all/campaign.json summary)
string(JSON passed GET "${summary}" passed)
string(JSON judged GET "${summary}" judged sim.differential)
if(NOT passed EQUAL RUNS OR NOT judged EQUAL RUNS)
  message(FATAL_ERROR "campaign.json: ${passed} passed, sim.differential judged ${judged} times, not ${RUNS}")
endif()
file(READ ${WORK}/all/junit.xml junit)
if(NOT junit MATCHES "sim.differential" OR junit MATCHES "<failure")
  message(FATAL_ERROR "junit.xml does not show sim.differential passing")
endif()

foreach(shard 0 1)
  execute_process(COMMAND ${SIM} campaign --differential --runs 30 --seed 2 --shard ${shard}/2
                          --server-bin ${SERVER_BIN} --out ${WORK}/shard${shard}
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "shard ${shard}/2 exited ${rc}")
  endif()
endforeach()
execute_process(COMMAND ${SIM} campaign --differential --runs 30 --seed 2 --server-bin ${SERVER_BIN}
                        --out ${WORK}/whole
                RESULT_VARIABLE rc OUTPUT_QUIET)
execute_process(COMMAND ${SIM} merge ${WORK}/shard0 ${WORK}/shard1 --out ${WORK}/merged
                RESULT_VARIABLE merge_rc OUTPUT_QUIET)
if(NOT rc EQUAL 0 OR NOT merge_rc EQUAL 0)
  message(FATAL_ERROR "the whole campaign exited ${rc}, the merge ${merge_rc}")
endif()
# a sim campaign's shard of the same seed is not a shard of this one
execute_process(COMMAND ${SIM} campaign --runs 30 --seed 2 --shard 1/2 --out ${WORK}/sim_shard1
                RESULT_VARIABLE rc OUTPUT_QUIET)
execute_process(COMMAND ${SIM} merge ${WORK}/shard0 ${WORK}/sim_shard1 --out ${WORK}/mixed
                RESULT_VARIABLE mixed_rc OUTPUT_VARIABLE mixed_out ERROR_VARIABLE mixed_err)
if(NOT rc EQUAL 0 OR mixed_rc EQUAL 0 OR NOT "${mixed_out}${mixed_err}" MATCHES "of another campaign")
  message(FATAL_ERROR "a differential shard merged with a sim campaign's (exit ${mixed_rc}):\n${mixed_out}${mixed_err}")
endif()
file(READ ${WORK}/whole/campaign.json whole)
file(READ ${WORK}/merged/campaign.json merged)
if(NOT whole STREQUAL merged)
  message(FATAL_ERROR "the merge of the two shards is not the whole campaign's campaign.json")
endif()
