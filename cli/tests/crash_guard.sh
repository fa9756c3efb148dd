#!/usr/bin/env bash
# campaign's crash guard, with the command line linked to a core that crashes (a null write
# at a job's second CLAIM) and to one that never returns from it (cli/tests/CMakeLists.txt):
# the crash and the hang are the campaign's failure (exit 1), named sim.crash / sim.hang at
# the call in flight, shrunk (a crash), the same whatever the threads, filed (history up
# to the call, plan, crash text, campaign.json, dashboard, JUnit); the history reproduces
# the crash on the crashing core and, on the correct one, diverges at that call.
# And a failure that needs the runs before it in the same process (a core keeping state
# between calls) is said to be so.
#   crash_guard.sh SIM SIM_CRASHING SIM_HANGING WORK SIM_STATEFUL
set -uo pipefail
sim="$1" crashing="$2" hanging="$3" work="$4" stateful="$5"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
contains() { grep -qF -- "$2" "$1" || { echo "--- $1:" >&2; cat "$1" >&2; fail "$1 lacks: $2"; }; }

# 1. A crash, two threads.
"$crashing" campaign --runs 400 --seed 3 --parallel 2 --out "$work/crash" --report "$work/crash/dash.html" \
  --junit "$work/crash/junit.xml" >"$work/crash.out" 2>"$work/crash.err"
rc=$?
[[ $rc == 1 ]] || { cat "$work/crash.out" "$work/crash.err" >&2; fail "crash: exit $rc, want 1"; }
contains "$work/crash.out" "CRASHED: the campaign's process died by SIGSEGV"
contains "$work/crash.out" "rerun alone, in its own process: dies by SIGSEGV"
line=$(grep '^FAILED run ' "$work/crash.out") || fail "no FAILED line"
[[ $line =~ ^FAILED\ run\ ([0-9]+):\ sim\.crash\ at\ call\ ([0-9]+),\ t=[0-9]+:\ the\ process\ died\ by\ SIGSEGV\ during\ call\ [0-9]+\ \(EMQ\.CLAIM\  ]] ||
  fail "unexpected FAILED line: $line"
run="${BASH_REMATCH[1]}" call="${BASH_REMATCH[2]}"
contains "$work/crash.out" "each in its own process"
for f in failure.history.jsonl failure.plan.json failure.crash.txt campaign.json dash.html dash.md junit.xml; do
  [[ -s "$work/crash/$f" ]] || fail "crash: $f not written"
done
# campaign.json's fields (summary_json writes one per line): the top-level one, or the failure's
top() { sed -n "s/^  \"$2\": \([0-9]*\),\{0,1\}$/\1/p" "$1"; }
failure() { sed -n '/^  "failure": {/,/^  }/p' "$1" | sed -n "s/^    \"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p"; }
json="$work/crash/campaign.json"
[[ $(failure "$json" invariant) == sim.crash && $(failure "$json" run) == "$run" ]] || fail "campaign.json: failure is not sim.crash of run $run"
[[ $(failure "$json" shrunk_calls) == "$call" ]] || fail "campaign.json: shrunk_calls $(failure "$json" shrunk_calls), want $call"
(($(failure "$json" shrunk_calls) <= $(failure "$json" original_calls))) || fail "campaign.json: shrunk past the original"
[[ $(top "$json" failed) == 1 && $(top "$json" passed) == "$run" ]] || fail "campaign.json: passed/failed $(top "$json" passed)/$(top "$json" failed)"
contains "$work/crash/junit.xml" 'name="sim.crash"'
contains "$work/crash/dash.md" "sim.crash"
contains "$work/crash/dash.html" '<tr><td><code>sim.crash</code>'
# the history holds the calls before the one in flight, then its end line
calls=$(grep -c '"call":\[' "$work/crash/failure.history.jsonl")
[[ $calls == $((call - 1)) ]] || fail "history holds $calls calls, want $((call - 1))"
# it reproduces: the crashing core dies by the same signal; the correct one diverges there
"$crashing" replay "$work/crash/failure.history.jsonl" >"$work/replay.out" 2>&1
rc=$?
[[ $rc == 139 ]] || fail "replay on the crashing core: exit $rc, want 139 (SIGSEGV)"
"$sim" replay "$work/crash/failure.history.jsonl" >"$work/replay_ok.out" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "replay on the correct core: exit $rc, want 1"
contains "$work/replay_ok.out" "first divergence"
contains "$work/replay_ok.out" '"call":["EMQ.CLAIM"'

# 2. The same campaign on one thread finds the same run and writes the same files.
"$crashing" campaign --runs 400 --seed 3 --out "$work/crash1" >"$work/crash1.out" 2>/dev/null
rc=$?
[[ $rc == 1 ]] || fail "one thread: exit $rc"
for f in failure.history.jsonl failure.plan.json campaign.json; do
  cmp -s "$work/crash/$f" "$work/crash1/$f" || fail "$f differs between --parallel 2 and 1"
done

# 2b. In two shards, merged: the unsharded campaign.json and failure files, byte for byte.
for i in 0 1; do
  "$crashing" campaign --runs 400 --seed 3 --shard "$i/2" --out "$work/shard$i" >/dev/null 2>&1
  rc=$?
  [[ $rc == 1 || $rc == 0 ]] || fail "shard $i: exit $rc"
done
"$crashing" merge "$work/shard0" "$work/shard1" --out "$work/merged" >"$work/merge.out" 2>&1 || true
for f in campaign.json failure.history.jsonl failure.plan.json failure.crash.txt; do
  cmp -s "$work/crash/$f" "$work/merged/$f" || fail "merged shards: $f differs from the unsharded campaign's"
done

# 3. A hang: stopped after --run-timeout, named at its call, filed, not shrunk.
"$hanging" campaign --runs 400 --seed 3 --parallel 2 --run-timeout 2 --out "$work/hang" >"$work/hang.out" 2>/dev/null
rc=$?
[[ $rc == 1 ]] || { cat "$work/hang.out" >&2; fail "hang: exit $rc, want 1"; }
contains "$work/hang.out" "after 2 s (--run-timeout); the campaign's process was stopped"
contains "$work/hang.out" "sim.hang at call"
contains "$work/hang.out" "had not returned after 2 s"
contains "$work/hang.out" "not shrunk"
contains "$work/hang/failure.crash.txt" "never returned from a call"
[[ $(failure "$work/hang/campaign.json" invariant) == sim.hang ]] || fail "hang campaign.json: not sim.hang"

# 4. Without the guard (--in-process) the crash ends the command itself, as asked.
"$crashing" campaign --runs 400 --seed 3 --out "$work/inproc" --in-process >/dev/null 2>&1
rc=$?
[[ $rc == 139 ]] || fail "--in-process: exit $rc, want 139"

# 5. The correct core: the guard changes nothing (same campaign.json as --in-process).
"$sim" campaign --runs 300 --seed 3 --parallel 2 --out "$work/ok" >/dev/null 2>&1 || fail "correct core, guarded: exit $?"
"$sim" campaign --runs 300 --seed 3 --parallel 2 --out "$work/ok_inproc" --in-process >/dev/null 2>&1 ||
  fail "correct core, in process: exit $?"
cmp -s "$work/ok/campaign.json" "$work/ok_inproc/campaign.json" || fail "guarded and in-process campaign.json differ"

# 6. A bad --run-timeout is refused, naming the option.
"$sim" campaign --runs 1 --out "$work/bad" --run-timeout -1 >"$work/bad.out" 2>&1
rc=$?
[[ $rc == 2 ]] || fail "--run-timeout -1: exit $rc, want 2"
contains "$work/bad.out" "--run-timeout"
# 7. A failure that does not reproduce alone: found, and said so.
"$stateful" campaign --runs 2000 --seed 3 --out "$work/stateful" >"$work/stateful.out" 2>/dev/null
rc=$?
[[ $rc == 1 ]] || { cat "$work/stateful.out" >&2; fail "stateful: exit $rc, want 1"; }
contains "$work/stateful.out" "NOT REPRODUCIBLE ALONE: run "
echo "crash guard: all checks passed"
