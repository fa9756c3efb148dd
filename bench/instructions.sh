#!/usr/bin/env bash
# Server instructions per claim->complete cycle, by executor: a figure that, unlike time,
# does not move with other load on the machine (issue 8's ratios, checked under valgrind).
#   bench/instructions.sh [BIN_DIR]     (default: build-bench/bin; needs valgrind)
#
# For each executor, runs trafikey-bench-cycles --quick --only EXECUTOR twice with the
# server under `valgrind --tool=callgrind`, at two cycle counts, and prints the difference
# in the server's instructions divided by the difference in cycles: setup, warm-up and
# start-up cancel out. Takes about two minutes. Keep callgrind files with KEEP=dir.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build-bench/bin}"
server="${TRAFIKEY_SERVER_BIN:-$(command -v valkey-server || command -v redis-server)}"
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/server.sh" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$work/out.%p "$server" "\$@"
EOF
chmod +x "$work/server.sh"

clients=4
small=256
large=1280
# instructions of one run: EXECUTOR CYCLES_PER_CLIENT
run() {
  rm -f "$work"/out.*
  TRAFIKEY_SERVER_BIN="$work/server.sh" "$bin/trafikey-bench-cycles" --quick --only "$1" \
    --count "$2" >/dev/null
  if [[ -n "${KEEP:-}" ]]; then mkdir -p "$KEEP"; cp "$work"/out.* "$KEEP/callgrind.$1.$2"; fi
  grep -h '^summary:' "$work"/out.* | awk '{print $2}'
}

printf '%-8s  %s\n' executor "server instructions/cycle"
declare -A per_cycle
for mode in native script floor; do
  a=$(run "$mode" "$small")
  b=$(run "$mode" "$large")
  per_cycle[$mode]=$(( (b - a) / ((large - small) * clients) ))
  printf '%-8s  %s\n' "$mode" "${per_cycle[$mode]}"
done
awk -v n="${per_cycle[native]}" -v s="${per_cycle[script]}" -v f="${per_cycle[floor]}" 'BEGIN {
  printf "script/native = %.2fx (aim >= 1.5)   floor/native = %.2f (aim >= 0.7)\n", s / n, f / n }'
