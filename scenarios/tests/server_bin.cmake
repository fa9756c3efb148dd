# Included by the real-server test scripts: the server they run on is chosen when the test
# runs, as the launcher chooses it (module/harness/real_server.h find_server_binary):
# $TRAFIKEY_SERVER_BIN, else valkey-server on PATH, else redis-server. So
# `TRAFIKEY_SERVER_BIN=... ctest` runs every real-server test on that server, without a new
# configure. Sets SERVER_BIN (unless the caller gave one with -DSERVER_BIN=...).
if(NOT "${SERVER_BIN}" STREQUAL "")
  return()
endif()
if(NOT "$ENV{TRAFIKEY_SERVER_BIN}" STREQUAL "")
  set(SERVER_BIN "$ENV{TRAFIKEY_SERVER_BIN}")
  return()
endif()
find_program(SERVER_BIN NAMES valkey-server NO_CACHE)
if(NOT SERVER_BIN)
  find_program(SERVER_BIN NAMES redis-server NO_CACHE)
endif()
if(NOT SERVER_BIN)
  message(FATAL_ERROR "no server: set TRAFIKEY_SERVER_BIN or put valkey-server or redis-server on PATH")
endif()
