#!/usr/bin/env bash
# trafikey's one entry point on a Debian 12 machine (see README.md):
#   ./dev.sh main   install what is missing, build trafikey-sim alone, run the main job
#   ./dev.sh test   install what is missing, build (default + asan), run every test
#   ./dev.sh build  build the default preset only
#   ./dev.sh deps   install what is missing, nothing else (CI jobs that then build)
set -euo pipefail
cd "$(dirname "$0")"

# What configuring and building trafikey-sim needs, and `dot` for the report's state graph.
PACKAGES=(cmake ninja-build g++ librapidcheck-dev libgtest-dev libboost-graph-dev
          libhiredis-dev graphviz nlohmann-json3-dev libcli11-dev
          libssl-dev zlib1g-dev libgoogle-perftools-dev liblua5.1-0-dev)
# What only the tests run: the real server, a fleet of shards, the JUnit schema check and
# the report as a browser draws it. `./dev.sh main` does not install these.
TEST_PACKAGES=(redis-server parallel libxml2-utils chromium)

usage() { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; }

install_missing() {  # install_missing PACKAGE...: those of them not yet installed
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "dev.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Try the lists the machine has first; refresh them only when that fails.
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" ||
    { $sudo apt-get update -q && $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"; }
}

build() {  # build PRESET [TARGET...]: every target, or only those named
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" ${2:+--target "${@:2}"}
}

case "${1:-}" in
  main)
    install_missing "${PACKAGES[@]}"
    # The main job runs trafikey-sim alone (it writes the report too): nothing else is
    # built, neither the mutants nor the test programs (./dev.sh test builds those).
    build default trafikey-sim
    # the embedded default: a property campaign on the simulated server, with a report
    exec build/bin/trafikey-sim campaign --runs 2000 --seed 1 --parallel "$(nproc)" \
      --out out/campaign --report out/campaign/report.html
    ;;
  test)
    install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    build default
    ctest --preset default
    build asan
    ctest --preset asan
    ;;
  build)
    build default
    ;;
  deps)
    install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    ;;
  -h|--help|help)
    usage
    ;;
  *)
    usage >&2
    exit 2
    ;;
esac
