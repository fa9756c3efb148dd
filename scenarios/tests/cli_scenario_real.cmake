# `trafikey-sim scenario --server-bin` as a user runs it: sim-only files skipped and listed
# by name, the counts, a failing expectation and a broken invariant on the real server, and
# the differential check. Run with -DSIM=<trafikey-sim> -DWORK=<dir>; the server is chosen
# when the test runs (server_bin.cmake; -DSERVER_BIN=<binary> overrides it).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/server_bin.cmake)

set(head "scenario \"t\"\noption seed 1\n")
file(WRITE ${WORK}/pass.scn
     "${head}at 0 a: EMQ.ADD q j1 x => 1\nat 0 a: EMQ.EPOCH => 5c017cf0d6fa2f3baec463746955b3584154a280\n"
     "at 50 restart\nat 50 a: EMQ.EPOCH => 7a3a662cb7c1e246376332a92e84a72b227adff6\n"
     "at 50 check row q j1 state=pending\nat 50 check invariants\n")
file(WRITE ${WORK}/sim_only.scn "${head}at 0 a: EMQ.ADD q j1 x => 1\nat 10 epoch fail\nat 10 restart\n")
file(WRITE ${WORK}/fail.scn "${head}at 0 a: EMQ.ADD q j1 x => 1\nat 0 a: EMQ.ADD q j1 x => 1\n")
file(WRITE ${WORK}/broken.scn
     "${head}at 0 a: EMQ.ADD q j1 x => 1\nat 0 op: HSET \"emq:{q}:job:j1\" state done\nat 1 check invariants\n")
# The sim's plain ZADD takes no flags; a real server's does: a true divergence.
file(WRITE ${WORK}/diverges.scn "${head}at 0 a: ZADD z NX 1 m => _\n")

expect("help" 0 "" "--server TEXT.*--server-bin TEXT.*--cluster UINT.*--module TEXT.*--differential" scenario --help)
expect("--cluster without --server-bin" 2 "" "--cluster needs --server-bin PATH" scenario --cluster 3 pass.scn)
expect("real: passes, skips the sim-only file by name" 0 "1 passed, 0 failed, 1 skipped"
       "skipped sim_only.scn: sim-only step at line 4: epoch fail\n.*skipped on [^\n]*: sim_only.scn"
       scenario --server-bin ${SERVER_BIN} pass.scn sim_only.scn)
expect("real: a failing expectation" 1 "0 passed, 1 failed, 0 skipped"
       "fail.scn:4: failed: .*\n  expected: 1\n  actual:   0" scenario --server-bin ${SERVER_BIN} fail.scn)
expect("real: a broken invariant" 1 "0 passed, 1 failed, 0 skipped"
       "broken.scn:5: failed: at 1 check invariants.*queue.conserve.*j1 is in pending but its row says state done"
       scenario --server-bin ${SERVER_BIN} broken.scn)
expect("differential: agree" 0 "1 passed, 0 failed, 1 skipped" "passed  pass.scn \\(sim and real agree\\)"
       scenario --differential --server-bin ${SERVER_BIN} pass.scn sim_only.scn)
expect("differential: a divergence" 1 "0 passed, 1 failed, 0 skipped"
       "diverges.scn:3: failed: sim and real server differ: the reply of at 0 a: ZADD z NX 1 m => _\n  expected: sim:  error \"ERR syntax error\"\n  actual:   real: 1\n  invariant: sim.differential"
       scenario --differential --server-bin ${SERVER_BIN} diverges.scn)
expect("--differential alone" 2 "" "needs --server" scenario --differential pass.scn)
