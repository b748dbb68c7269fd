#!/usr/bin/env bash
# watch-load.sh: the node agent under load (issue 15). An 8-GPU node (the
# fake NVML, 18 NVLinks per GPU) with 200 hwmon sensors under --fsroot and
# a BMC that hangs on every request (the Redfish mock in hang mode):
#   1. scraped 10 times a second for 60 s while collecting every second:
#      scrape latency (p50, p99, max) and resident memory over the run;
#   2. left alone at the default 15 s interval for 60 s: CPU share.
# The release build (`make all`) and the fake NVML of the test build.
# SECONDS_LOAD and SECONDS_IDLE shorten the runs. Prints the figures;
# exits 1 when p99 is 20 ms or more or a scrape failed.
set -uo pipefail
cd "$(dirname "$0")/.."
make -s all build/test/lib/fake-nvml.so >/dev/null || exit 1
sn=build/rel/supernode
load_s=${SECONDS_LOAD:-60}
idle_s=${SECONDS_IDLE:-60}
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# 200 hwmon sensors: 25 chips of 8 temperatures
root=$tmp/root
for c in $(seq 0 24); do
    d=$root/sys/class/hwmon/hwmon$c
    mkdir -p "$d"
    echo "chip$c" >"$d/name"
    for s in $(seq 1 8); do
        echo $((30000 + c * 100 + s * 10)) >"$d/temp${s}_input"
        echo "sensor $s" >"$d/temp${s}_label"
    done
done
# 8 GPUs
{
    echo "driver: 550.54.15"
    echo "cuda: 12040"
    echo "gpus:"
    for g in 0 1 2 3 4 5 6 7; do
        cat <<G
  - bus: "00000000:1$g:00.0"
    name: NVIDIA H100 80GB HBM3
    uuid: GPU-00000000-0000-4000-8000-00000000000$g
    pstate: 0
    ecc: {mode: on, volatile_corrected: 0, volatile_uncorrected: 0,
          aggregate_corrected: 0, aggregate_uncorrected: 0}
    remapped_rows: {corrected: 0, uncorrected: 0, pending: 0, failure: 0}
    reasons: 0x0
    power: {limit_w: 700, default_w: 700, min_w: 200, max_w: 700,
            usage_mw: 612000, energy_mj: 81234567}
    clocks: {mem: 2619, mem_max: 2619, sm: 1980, sm_max: 1980}
    temperature: {gpu: 6$g, slowdown: 90, shutdown: 92}
    memory: {used_mib: 61440, total_mib: 81559}
    nvlink: {links: 18}
    utilization: 97
    processes:
      - {pid: 1, memory_mib: 61000, sm: 97}
G
    done
} >"$tmp/nvml.yaml"
export SN_FAKE_NVML=$tmp/nvml.yaml

# a BMC that never answers in time
python3 tests/lib/redfish-mock.py --user u --password p >"$tmp/mock.out" &
pids+=($!)
for i in $(seq 1 50); do [[ -s $tmp/mock.out ]] && break; sleep 0.1; done
mport=$(head -n 1 "$tmp/mock.out")
curl -s -X POST -d '{"path": "/redfish/v1", "mode": "hang", "seconds": 3600}' \
    "http://127.0.0.1:$mport/_mock/fault" >/dev/null
printf 'u:p\n' >"$tmp/cred"
chmod 600 "$tmp/cred"

run_agent() { # interval, port
    "$sn" watch --db none --fsroot "$root" --nvml build/test/lib/fake-nvml.so \
        --redfish "http://127.0.0.1:$mport" --redfish-credentials "$tmp/cred" \
        --listen "127.0.0.1:$2" --interval "$1" >"$tmp/agent-$2.out" 2>&1 &
    pids+=($!)
    echo $!
}
wait_up() {
    for i in $(seq 1 100); do
        curl -sf -o /dev/null "http://127.0.0.1:$1/metrics" && return 0
        sleep 0.1
    done
    return 1
}

rc=0
port=$(free_port)
pid=$(run_agent 1s "$port")
wait_up "$port" || { echo "the agent did not start"; cat "$tmp/agent-$port.out"; exit 1; }
sleep 3 # the BMC's deadline has passed at least once
series=$(curl -s "http://127.0.0.1:$port/metrics" | grep -vc '^#')
redfish_up=$(curl -s "http://127.0.0.1:$port/metrics" | grep '^supernode_collector_up{collector="redfish"}')
echo "agent: $series series; $redfish_up (the hung BMC)"
out=$(python3 bench/watch-load.py "http://127.0.0.1:$port/metrics" "$pid" \
    --rate 10 --seconds "$load_s" --label "scraped 10/s, collecting every 1 s")
echo "$out"
p99=$(sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p' <<<"$out")
python3 -c "import sys; sys.exit(0 if float('$p99') < 20 else 1)" || {
    echo "FAIL: p99 $p99 ms, the bound is 20 ms"
    rc=1
}
grep -q "failures 0$" <<<"$out" || rc=1
kill "$pid"

if command -v prometheus-node-exporter >/dev/null 2>&1; then
    nport=$(free_port)
    prometheus-node-exporter --web.listen-address="127.0.0.1:$nport" \
        >"$tmp/ne.out" 2>&1 &
    pids+=($!)
    wait_up "$nport" && python3 bench/watch-load.py \
        "http://127.0.0.1:$nport/metrics" "$!" --rate 10 \
        --seconds "$load_s" --label "peer: node_exporter, scraped 10/s"
fi

port=$(free_port)
pid=$(run_agent 15s "$port")
wait_up "$port" || exit 1
python3 bench/watch-load.py "http://127.0.0.1:$port/metrics" "$pid" \
    --rate 0.0667 --seconds "$idle_s" --label "idle at a 15 s interval, scraped every 15 s"
exit $rc
