#!/usr/bin/env bash
# trafikey's benchmarks, every table from one run (issues 8 and 3):
#   bench/run.sh [--quick] [--instructions] [--build-dir DIR]
#                        configure + build what is needed (build-bench/), run every table
#   bench/run.sh --no-build BIN_DIR [--quick]  run already-built programs (the `bench` target)
#   --instructions       also count instructions under valgrind (bench/instructions.sh, about
#                        three more minutes): the server's per claim->complete cycle, and the
#                        simulator's checked rows against the unchecked one
#
# Tables: the simulator (calls per CPU-second), claim->complete cycles (native on wire 1 and
# wire 2 vs scripts vs the MULTI/EXEC floor), EMQ.EXTENDS with 1/10/100 pairs, the sweep's
# cost per member at 10^3..10^6 live leases, bytes per pending job. Each server program starts
# and stops its own server (valkey-server, else redis-server; $TRAFIKEY_SERVER_BIN overrides).
# About two minutes on 2 cores after the build; --quick takes seconds (noisier figures).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

quick=()
instructions=0
build_dir="$root/build-bench"
bin_dir=""
while (($#)); do
  case "$1" in
    --quick) quick=(--quick) ;;
    --instructions) instructions=1 ;;
    --build-dir) build_dir="$2"; shift ;;
    --no-build) bin_dir="$2"; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

programs=(trafikey-bench-sim trafikey-bench-cycles trafikey-bench-extends trafikey-bench-sweep
          trafikey-bench-memory)

if [[ -z "$bin_dir" ]]; then
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DTRAFIKEY_REAL_SERVER_TESTS=ON >/dev/null
  cmake --build "$build_dir" -j "$(nproc)" --target trafikey "${programs[@]}"
  bin_dir="$build_dir/bin"
fi

server="${TRAFIKEY_SERVER_BIN:-$(command -v valkey-server || command -v redis-server || true)}"
echo "== machine"
echo "date      $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "nproc     $(nproc)"
echo "cpu       $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "kernel    $(uname -sr)"
echo "load      $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min; other work on the machine skews wall-clock figures)"
echo "server    ${server:-none} $("${server:-true}" --version 2>/dev/null | head -1)"
echo "compiler  $(c++ --version | head -1)"
echo "build     $bin_dir (module: $bin_dir/trafikey.so)"

start=$(date +%s)
for p in "${programs[@]}"; do
  "$bin_dir/$p" "${quick[@]}"
done
if ((instructions)); then
  echo
  echo "== instructions (callgrind; independent of load): the server per claim->complete cycle, the simulator's rows"
  "$root/bench/instructions.sh" "$bin_dir"
fi
echo
echo "== all tables in $(( $(date +%s) - start )) s"
