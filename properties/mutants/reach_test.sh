#!/usr/bin/env bash
# ctest properties.mutant_reach_script: reach_test.sh REACH_SH BIN_DIR
set -uo pipefail
script=$1 bin=$2
fail() { printf 'FAIL: %s\n' "$*"; exit 1; }
run() { out=$("$script" "$@" 2>&1); rc=$?; }

# two mutants the CI seed catches at once, on seeds 1 and 2, from a BIN_DIR given relative
cd "$bin/.." || fail "no directory above $bin"
run --seeds 2 --first-seed 1 --runs 3000 --parallel 2 --only '^(exemption_inverted|stall_budget_off_by_one)$' "$(basename "$bin")"
[[ $rc == 0 ]] || fail "two quick mutants: exit $rc: $out"
grep -qE '^exemption_inverted +2/2 +[0-9]+ +[0-9]+ +0$' <<<"$out" || fail "no 2/2 row for exemption_inverted: $out"
grep -qE '^stall_budget_off_by_one +2/2 ' <<<"$out" || fail "no 2/2 row for stall_budget_off_by_one: $out"
grep -q '^every mutant caught on every seed$' <<<"$out" || fail "no verdict line: $out"
[[ $(grep -cE '^[a-z0-9_]+ +[0-9]+/[0-9]+ ' <<<"$out") == 2 ]] || fail "rows for mutants other than the two: $out"

# one run cannot reach a mutant that needs hundreds: a miss, exit 1, named with its seed
run --seeds 1 --first-seed 7 --runs 1 --only '^exempt_compares_a_prefix$' "$bin"
[[ $rc == 1 ]] || fail "a miss: exit $rc, not 1: $out"
grep -qE '^exempt_compares_a_prefix +0/1 +miss +miss +0$' <<<"$out" || fail "no 0/1 miss row: $out"
grep -qE '^  exempt_compares_a_prefix \(seed 7\)$' <<<"$out" || fail "the miss is not listed with its seed: $out"

# refusals name what was wrong, exit 2
run --seeds 0 "$bin"
[[ $rc == 2 && "$out" == *"--seeds needs a whole number >= 1, got '0'"* ]] || fail "--seeds 0: exit $rc: $out"
run --runs x "$bin"
[[ $rc == 2 && "$out" == *"--runs needs a whole number >= 1, got 'x'"* ]] || fail "--runs x: exit $rc: $out"
run --only '^no_such_mutant$' "$bin"
[[ $rc == 2 && "$out" == *"no mutant in"*"matches '^no_such_mutant\$'"* ]] || fail "--only matching nothing: exit $rc: $out"
run --frobnicate "$bin"
[[ $rc == 2 && "$out" == *"unknown option --frobnicate"* ]] || fail "an unknown option: exit $rc: $out"
run "$bin/nowhere"
[[ $rc == 2 && "$out" == *"is not a directory"* ]] || fail "a missing BIN_DIR: exit $rc: $out"
echo "reach.sh: ok"
