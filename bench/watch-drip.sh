#!/usr/bin/env bash
# watch-drip.sh: the node agent's HTTP server against slow clients (issue
# 29): the release agent (no NVML, an empty --fsroot, collecting every
# second) on a free port of 127.0.0.1, and bench/watch-drip.py holding
# 2,000 connections from 127.0.0.2-5 that drip their heads while a fresh
# client scrapes /metrics every 0.25 s. SECONDS_DRIP shortens the run (20
# s). Prints the figures; exits 1 when a scrape failed or took 1 s.
set -uo pipefail
cd "$(dirname "$0")/.."
make -s all >/dev/null || exit 1
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
build/rel/supernode watch --fsroot "$tmp" --nvml none --interval 1s \
    --listen "127.0.0.1:$port" 2>"$tmp/agent.err" &
agent=$!
trap 'kill $agent 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do
    curl -s -o /dev/null "http://127.0.0.1:$port/metrics" && break
    sleep 0.1
done
python3 bench/watch-drip.py "$port" --seconds "${SECONDS_DRIP:-20}"
