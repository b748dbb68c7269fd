#!/usr/bin/env bash
# run.sh: every benchmark of our own speed (`make bench`). Each bench/NAME.sh
# runs on its own and prints its figures; docs/benchmarks.md records them
# with the command, the machine and the date.
# To add a benchmark: 1. bench/NAME.sh (and its sources)  2. its section in
# docs/benchmarks.md.
set -uo pipefail
cd "$(dirname "$0")/.."
rc=0
for b in bench/*.sh; do
    [[ "$b" == bench/run.sh ]] && continue
    echo "== $b"
    bash "$b" || rc=1
done
exit $rc
