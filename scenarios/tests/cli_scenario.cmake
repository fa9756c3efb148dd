# `trafikey-sim scenario`, `replay FILE.scn` and `export` as a user runs them, on the sim:
# the exit codes (0 held / 1 failed / 2 does not parse), the message naming the file and
# line for each malformed file, and the last line `N passed, N failed, N skipped`.
# Run with -DSIM=<trafikey-sim> -DWORK=<scratch dir>.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

set(head "scenario \"t\"\noption seed 1\n")
file(WRITE ${WORK}/pass.scn "${head}at 0 a: EMQ.ADD q j1 x => 1\nat 0 check invariants\n")
file(WRITE ${WORK}/fail.scn "${head}at 0 a: EMQ.ADD q j1 x => 1\nat 0 a: EMQ.ADD q j1 x => 1\n")
file(WRITE ${WORK}/broken.scn
     "${head}at 0 a: EMQ.ADD q j1 x => 1\nat 0 op: HSET \"emq:{q}:job:j1\" state done\nat 1 check invariants\n")
# The four malformed files of issue 6: each must be refused with exit 2 naming its line.
file(WRITE ${WORK}/no_target.scn "${head}at 0 a: EMQ.ADD q j1 x =>\n")
file(WRITE ${WORK}/unknown_step.scn "${head}at 0 a: EMQ.ADD q j1 x => 1\nat 5 reboot\n")
file(WRITE ${WORK}/backwards.scn "${head}at 10 a: EMQ.ADD q j1 x => 1\nat 5 a: EMQ.ADD q j2 x => 1\n")
file(WRITE ${WORK}/unterminated.scn "${head}at 0 a: EMQ.ADD q j1 \"hello => 1\n")

expect("help" 0 "" "Run scenario files.*FILE TEXT ... REQUIRED" scenario --help)
# The real targets' help names every step each skips (built from scenario::skipped_steps).
expect("help names the skipped steps" 0 ""
       "files with restart, failover, failback, reload, replica, primary, deny, allow, clock, drift or epoch steps are skipped.*losing exactly the writes the sim loses.*Files with epoch steps are skipped\n.*files with restart, failover, failback, replica, primary, deny, allow, clock or drift are skipped too"
       scenario --help)
expect("one passing file" 0 "1 passed, 0 failed, 0 skipped" "passed  pass.scn" scenario pass.scn)
expect("a failing expectation" 1 "1 passed, 1 failed, 0 skipped"
       "fail.scn:4: failed: at 0 a: EMQ.ADD q j1 x => 1\n  expected: 1\n  actual:   0\n"
       scenario pass.scn fail.scn)
expect("a broken invariant" 1 "0 passed, 1 failed, 0 skipped"
       "broken.scn:5: failed: at 1 check invariants.*queue.conserve.*j1 is in pending but its row says state done"
       scenario broken.scn)
expect("missing => target" 2 "0 passed, 1 failed, 0 skipped"
       "no_target.scn:3:[0-9]+: expected a reply after '=>'" scenario no_target.scn)
expect("unknown step" 2 "0 passed, 1 failed, 0 skipped" "unknown_step.scn:4:[0-9]+: expected .*reboot"
       scenario unknown_step.scn)
expect("time going backwards" 2 "0 passed, 1 failed, 0 skipped"
       "backwards.scn:4:[0-9]+: expected a time of at least 10.*times must not go backwards"
       scenario backwards.scn)
expect("unterminated string" 2 "0 passed, 1 failed, 0 skipped" "unterminated.scn:3:[0-9]+: .*string"
       scenario unterminated.scn)
expect("a file that does not parse wins over a failure" 2 "1 passed, 2 failed, 0 skipped" ""
       scenario pass.scn fail.scn backwards.scn)
expect("a missing file" 2 "0 passed, 1 failed, 0 skipped" "nope.scn: cannot read" scenario nope.scn)

# replay FILE.scn runs the scenario on the sim; a history still replays as before.
expect("replay of a scenario" 0 "1 passed, 0 failed, 0 skipped" "" replay pass.scn)
expect("replay of a failing scenario" 1 "0 passed, 1 failed, 0 skipped" "" replay fail.scn)

# export: a generated run as a scenario file that replays with every reply matching.
execute_process(COMMAND ${SIM} run --seed 42 --faults restart,failover,clock,death,pause,lost-reply,epoch
                --persistence everysec --out ${WORK}/run RESULT_VARIABLE rc OUTPUT_QUIET)
expect("export" 0 "on the sim every reply matches the history" "wrote run.scn"
       export run/history.jsonl -o run.scn)
expect("the exported file runs" 0 "1 passed, 0 failed, 0 skipped" "" scenario run.scn)
expect("export of a non-history" 2 "" "pass.scn:1: not a trafikey history" export pass.scn -o x.scn)
# a history whose third line's reply is no reply: the reader names the file and the line
file(READ ${WORK}/run/history.jsonl history)
string(REGEX MATCH "^[^\n]*\n[^\n]*\n" first_two "${history}")
file(WRITE ${WORK}/broken.jsonl
     "${first_two}{\"t\":1,\"st\":1,\"inc\":1,\"actor\":\"a\",\"call\":[\"PING\"],\"reply\":{\"what\":1},\"w\":0}\n")
expect("export of a history with a broken line" 2 "" "broken.jsonl:3: field .reply. is not a reply" export broken.jsonl -o x.scn)

# --report exists when reports/ is built: one HTML page for the sim runs.
execute_process(COMMAND ${SIM} scenario --help OUTPUT_VARIABLE help)
if(help MATCHES "--report")
  expect("report" 1 "1 passed, 1 failed, 0 skipped" "report  report.html" scenario --report report.html pass.scn fail.scn)
  if(NOT EXISTS ${WORK}/report.html)
    message(FATAL_ERROR "--report wrote no report.html")
  endif()
endif()
