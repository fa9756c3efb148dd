#!/usr/bin/env bash
# Instruction counts under callgrind: figures that, unlike time, do not move with other
# load on the machine. Needs valgrind (Debian's `valgrind`; dev.sh does not install it).
#   bench/instructions.sh [--sim-only | --server-only] [BIN_DIR]   (default: build-bench/bin)
#
# 1. Server instructions per claim->complete cycle, by executor (issue 8's ratios, and
#    wire 2's cost beside wire 1's, issue 35): runs trafikey-bench-cycles --quick --only
#    EXECUTOR twice with the server under callgrind, at two cycle counts, and prints the
#    difference in the server's instructions divided by the difference in cycles: setup,
#    warm-up and start-up cancel out. About two minutes; needs a server binary (skipped
#    with --sim-only; --server-only runs this part alone).
# 2. The simulator's checked rows against the unchecked all-faults row (issue 14): the
#    instructions of trafikey-bench-sim --only ROW --count 20 --jobs 150 for each row, less
#    libcrypto's (SHA-256 of the history takes OpenSSL's portable path under valgrind, a
#    third of the unchecked count, but a few percent natively), and their ratios. The same
#    count on every run of the same build. Under a minute.
# Keep callgrind files with KEEP=dir.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sim_only=0
server_only=0
bin=""
while (($#)); do
  case "$1" in
    --sim-only) sim_only=1 ;;
    --server-only) server_only=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "instructions.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [[ -z "$bin" ]] || { echo "instructions.sh: one BIN_DIR only, got $bin and $1" >&2; exit 2; }
       bin="$1" ;;
  esac
  shift
done
bin="${bin:-$root/build-bench/bin}"
((!sim_only || !server_only)) || { echo "instructions.sh: --sim-only or --server-only, not both" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
command -v callgrind_annotate >/dev/null || { echo "instructions.sh: callgrind_annotate is not installed (it comes with valgrind)" >&2; exit 1; }
for program in $( ((server_only)) || echo trafikey-bench-sim) $( ((sim_only)) || echo trafikey-bench-cycles); do
  [[ -x "$bin/$program" ]] || { echo "instructions.sh: $bin/$program is not built (bench/run.sh builds it; or pass BIN_DIR)" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
keep() { if [[ -n "${KEEP:-}" ]]; then mkdir -p "$KEEP"; cp "$1" "$KEEP/$2"; fi; }

if ((!sim_only)); then
  server="${TRAFIKEY_SERVER_BIN:-$(command -v valkey-server || command -v redis-server || true)}"
  [[ -n "$server" ]] || { echo "instructions.sh: no valkey-server or redis-server (set TRAFIKEY_SERVER_BIN, or --sim-only)" >&2; exit 1; }
  cat >"$work/server.sh" <<INNER
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$work/out.%p "$server" "\$@"
INNER
  chmod +x "$work/server.sh"

  clients=4
  small=256
  large=1280
  # instructions of one run: EXECUTOR CYCLES_PER_CLIENT
  run() {
    rm -f "$work"/out.*
    TRAFIKEY_SERVER_BIN="$work/server.sh" "$bin/trafikey-bench-cycles" --quick --only "$1" \
      --count "$2" >/dev/null
    for f in "$work"/out.*; do keep "$f" "callgrind.$1.$2"; done
    grep -h '^summary:' "$work"/out.* | awk '{print $2}'
  }

  printf '%-12s  %s\n' executor "server instructions/cycle"
  declare -A per_cycle
  for mode in native native-wire2 script floor; do
    a=$(run "$mode" "$small")
    b=$(run "$mode" "$large")
    per_cycle[$mode]=$(( (b - a) / ((large - small) * clients) ))
    printf '%-12s  %s\n' "$mode" "${per_cycle[$mode]}"
  done
  awk -v n="${per_cycle[native]}" -v w="${per_cycle[native-wire2]}" -v s="${per_cycle[script]}" \
      -v f="${per_cycle[floor]}" 'BEGIN {
    printf "script/native = %.2fx (aim >= 1.5)   floor/native = %.2f (aim >= 0.7)\n", s / n, f / n
    printf "wire2/wire1   = %.3fx the instructions per cycle (native on both wires)\n\n", w / n }'
fi
((!server_only)) || exit 0

# The simulator: instructions of one row, libcrypto's left out.
sim_row() {
  local out="$work/sim.out"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin/trafikey-bench-sim" --only "$1" \
    --count 20 --jobs 150 >/dev/null 2>"$work/sim.err" ||
    { echo "instructions.sh: trafikey-bench-sim --only '$1' failed:" >&2; cat "$work/sim.err" >&2; exit 1; }
  keep "$out" "callgrind.sim.${1//[^a-z]/_}"
  callgrind_annotate --threshold=100 "$out" 2>/dev/null | awk '
    /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
    /libcrypto/      { gsub(",", "", $1); crypto += $1 }
    END { if (total == "") exit 1; printf "%d\n", total - crypto }'
}
unchecked_row="all faults (as dev.sh main)"
printf '%-44s  %s\n' "simulator row (20 histories, 150 jobs)" "instructions, less libcrypto"
base=$(sim_row "$unchecked_row")
printf '%-44s  %s\n' "$unchecked_row" "$base"
for row in "all faults, checked but verb.model" "all faults, every invariant judged directly" \
           "all faults, every invariant checked"; do
  n=$(sim_row "$row")
  awk -v r="$row" -v n="$n" -v b="$base" 'BEGIN { printf "%-44s  %d  (%.3fx the unchecked row)\n", r, n, n / b }'
done
