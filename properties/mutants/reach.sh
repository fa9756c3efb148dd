#!/usr/bin/env bash
# How reliably the campaign reaches each mutant: every mutant's catch over several seeds,
# not only the CI seed its self-test uses. A mutant caught at run 2500 of 8000 on one seed
# may be missed on the next; the harness's power against a wrong core it has never seen
# is the rate across seeds.
#   properties/mutants/reach.sh [--seeds K] [--first-seed S] [--runs N] [--only REGEX]
#                               [--parallel P] [BIN_DIR]
# Runs each built mutant (BIN_DIR/trafikey_mutant_*, default build/bin) with
# `--reach --runs N --seed S, S+1, ... S+K-1` (default K 5, S 1, N 8000, P the cores):
# the catch alone, neither shrunk nor minimized. Prints a row per mutant: the seeds that
# caught it, the median and the largest runs needed (a miss counts as N+1), and how many
# catches broke another invariant than the declared one first; then the mutants missed
# on some seed. Exit 0 when every mutant was caught on every seed, 1 when one was missed,
# 2 on a bad argument. Not a test (minutes per seed); the self-tests are.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seeds=5 first=1 runs=8000 only="" parallel="$(nproc)" bin=""
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }
need() {  # FLAG VALUE: a whole number >= 1 (the seed may be 0)
  local min=1
  [[ "$1" == --first-seed ]] && min=0
  [[ "${2:-}" =~ ^[0-9]+$ && "$2" -ge "$min" && ${#2} -le 18 ]] ||
    { echo "reach.sh: $1 needs a whole number >= $min, got '${2:-}'" >&2; exit 2; }
}
while (($#)); do
  case "$1" in
    --seeds|--first-seed|--runs|--parallel) need "$1" "${2:-}"
      case "$1" in --seeds) seeds=$2 ;; --first-seed) first=$2 ;; --runs) runs=$2 ;; --parallel) parallel=$2 ;; esac
      shift ;;
    --only) [[ -n "${2:-}" ]] || { echo "reach.sh: --only needs a pattern" >&2; exit 2; }
      only=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "reach.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [[ -z "$bin" ]] || { echo "reach.sh: one BIN_DIR only, got $bin and $1" >&2; exit 2; }
       bin="$1" ;;
  esac
  shift
done
bin="${bin:-$root/build/bin}"
[[ -d "$bin" ]] || { echo "reach.sh: $bin is not a directory (build first: cmake --build --preset default)" >&2; exit 2; }
bin="$(cd "$bin" && pwd)"  # each mutant runs in a scratch directory
mapfile -t names < <(find "$bin" -maxdepth 1 -type f -name 'trafikey_mutant_*' -executable -printf '%f\n' |
                       sed 's/^trafikey_mutant_//' | LC_ALL=C sort | { if [[ -n "$only" ]]; then grep -E -- "$only" || true; else cat; fi; })
((${#names[@]})) || { echo "reach.sh: no mutant in $bin${only:+ matches '$only'}" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# one line per (mutant, seed): NAME SEED RUNS_NEEDED|miss DECLARED(1/0)
one() {
  local name=$1 seed=$2 out
  out=$(cd "$work" && TRAFIKEY_FAILURES="$work/failures" "$bin/trafikey_mutant_$name" --reach --runs "$runs" --seed "$seed" 2>&1) || true
  if [[ "$out" =~ \(([0-9]+)\ runs\ needed\) ]]; then
    local declared=1
    [[ "$out" == *"not the declared invariant"* ]] && declared=0
    echo "$name $seed ${BASH_REMATCH[1]} $declared"
  elif [[ "$out" == *"NOT CAUGHT"* ]]; then
    echo "$name $seed miss 1"
  else
    echo "reach.sh: trafikey_mutant_$name --seed $seed said: $out" >&2
    echo "$name $seed error 1"
  fi
}
export -f one
export bin runs work
total=$(( ${#names[@]} * seeds ))
echo "reach.sh: ${#names[@]} mutants x $seeds seeds ($first..$((first + seeds - 1))), $runs runs each, $parallel at a time" >&2
for name in "${names[@]}"; do
  for ((s = first; s < first + seeds; ++s)); do echo "$name $s"; done
done | xargs -P "$parallel" -n 2 bash -c 'one "$0" "$1"' > "$work/rows"
[[ $(wc -l < "$work/rows") -eq $total ]] || { echo "reach.sh: expected $total results, got $(wc -l < "$work/rows")" >&2; exit 1; }
if grep -q ' error ' "$work/rows"; then echo "reach.sh: some runs did not report (above)" >&2; exit 1; fi

printf '%-48s %7s %8s %8s %6s\n' mutant caught median max other
awk -v seeds="$seeds" -v runs="$runs" '
  { n[$1]; if ($3 == "miss") { r = runs + 1 } else { r = $3; caught[$1]++; if (!$4) other[$1]++ }
    v[$1] = v[$1] " " r }
  END {
    for (name in n) {
      k = split(substr(v[name], 2), a, " ")
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
      med = (k % 2) ? a[(k + 1) / 2] : int((a[k / 2] + a[k / 2 + 1]) / 2)
      printf "%-48s %4d/%-2d %8s %8s %6d\n", name, caught[name], seeds, (med > runs ? "miss" : med), (a[k] > runs ? "miss" : a[k]), other[name]
    }
  }' "$work/rows" | LC_ALL=C sort
missed=$(awk '$3 == "miss" {print $1 " (seed " $2 ")"}' "$work/rows" | LC_ALL=C sort)
if [[ -n "$missed" ]]; then
  echo "missed on some seed:"
  echo "$missed" | sed 's/^/  /'
  exit 1
fi
echo "every mutant caught on every seed"
