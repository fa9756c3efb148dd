# The scenario corpus on a real server the runner starts: `trafikey-sim scenario
# [--differential] --server-bin SERVER FILE...`, its output passed through for the test's
# PASS_REGULAR_EXPRESSION. The server is chosen when the test runs (server_bin.cmake).
# Run with -DSIM=<trafikey-sim> -DSRC=<source dir> -DFILES="<file> <file>..." and
# optionally -DMODE=--differential, in the source directory (messages name the files as
# scenarios/DIR/NAME.scn).
include(${CMAKE_CURRENT_LIST_DIR}/server_bin.cmake)
separate_arguments(files UNIX_COMMAND "${FILES}")
execute_process(COMMAND ${SIM} scenario ${MODE} --server-bin ${SERVER_BIN} ${files}
                WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "trafikey-sim scenario exited ${rc}")
endif()
