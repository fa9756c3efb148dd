# `trafikey-sim soak` as a user runs it: the short form of one part (-DPART=fuzz|kill|
# replica, with the seed fixed, against the server chosen when the test runs:
# scenarios/tests/server_bin.cmake), or (-DPART=arguments) the refusals of bad arguments.
# Run with -DSIM=<trafikey-sim> -DWORK=<dir> -DSRC=<source>.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${SRC}/scenarios/tests/expect.cmake)
if(NOT PART STREQUAL "arguments")
  include(${SRC}/scenarios/tests/server_bin.cmake)
endif()

set(n "[1-9][0-9]*")
if(PART STREQUAL "fuzz")
  # Every refusal and every no-write reply judged by DEBUG DIGEST, the traffic queues audited.
  expect("fuzz" 0 "soak: nothing broke"
         "fuzz: passed.*\n  ${n} calls fuzzed\n.*  ${n} refusals checked\n.*  ${n} no-write replies checked\n.*  ${n} jobs audited"
         soak --part fuzz --calls 800 --seed 18 --server-bin ${SERVER_BIN})
elseif(PART STREQUAL "kill")
  # SIGKILLs under load, each followed by a restart on the AOF and the acknowledged-state check.
  expect("kill" 0 "soak: nothing broke"
         "kill: passed.*\n  ${n} kill rounds\n.*  ${n} acknowledged transitions checked\n"
         soak --part kill --calls 200 --seed 18 --server-bin ${SERVER_BIN})
elseif(PART STREQUAL "replica")
  expect("replica" 0 "soak: nothing broke"
         "replica: passed.*\n  ${n} replica digests compared\n  ${n} AOF reloads compared\n  2 restarts on the AOF compared"
         soak --part replica --calls 600 --seed 18 --server-bin ${SERVER_BIN})
else()
  expect("help" 0 "" "--part TEXT.*--calls.*--seconds.*--seed.*--server-bin TEXT.*--module TEXT" soak --help)
  expect("no bound" 2 "" "give --calls N and/or --seconds S" soak --part fuzz)
  # (CLI11 names the option on stderr.)
  expect("unknown part" 2 "" "" soak --part bogus --calls 10)
  expect("negative calls" 2 "" "" soak --calls -1)
  expect("missing server" 2 "" "--server-bin: ${WORK}/no-such-server is not an executable file"
         soak --calls 10 --server-bin ${WORK}/no-such-server)
  expect("missing module" 2 "" "--module: ${WORK}/no.so is not a file" soak --calls 10 --module ${WORK}/no.so)
  # A server that starts but is not one: the soak cannot run, and says so.
  file(WRITE ${WORK}/not-a-server.sh "#!/bin/sh\nexit 3\n")
  file(CHMOD ${WORK}/not-a-server.sh PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  expect("a server that exits" 2 "" "fuzz: could not run: real_server: server exited at start"
         soak --part fuzz --calls 10 --server-bin ${WORK}/not-a-server.sh)
endif()
