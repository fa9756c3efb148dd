# The differential campaign at its CI budget (issue 33): generated runs, each on the sim
# and on a real server the command starts, every reply and the final keyspace compared.
# `trafikey-sim campaign --differential --runs RUNS --seed 1 --parallel 2 --server-bin
# SERVER --out WORK`; the server is chosen when the test runs (server_bin.cmake). A
# divergence exits 1 and prints the run, the call, both sides and the reproducing command.
# Run with -DSIM=<trafikey-sim> -DWORK=<dir> -DRUNS=<n>.
include(${CMAKE_CURRENT_LIST_DIR}/server_bin.cmake)
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${SIM} campaign --differential --runs ${RUNS} --seed 1 --parallel 2
                        --server-bin ${SERVER_BIN} --out ${WORK}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "trafikey-sim campaign --differential exited ${rc}")
endif()
