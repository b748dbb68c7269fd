#!/usr/bin/env bash
# watch-bmc-slow.sh: the node agent against a slow, large BMC (issue 29):
# the Redfish mock serving one chassis with 250 coolant connectors, 250
# leak detectors and 4 PSUs (tests/fixtures/watch/make-bmc.py), every
# connector answering after 50 ms. The release agent collects every
# INTERVAL (5 s: a 4 s deadline, a 3.6 s walk) for ROUNDS intervals (6);
# after each, /metrics is scraped: the leak detectors and PSUs read, the
# connectors read in that interval, the union of connectors read so far,
# supernode_collector_partial, /healthz and the scrape's latency. Exits 1
# when an interval missed a leak detector or a PSU, or when the
# connectors were not all read by the last interval.
set -uo pipefail
cd "$(dirname "$0")/.."
make -s all >/dev/null || exit 1
interval=${INTERVAL:-5}
rounds=${ROUNDS:-6}
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
python3 tests/fixtures/watch/make-bmc.py "$tmp/bmc" --gpus 250 --psus 4 || exit 1
python3 tests/lib/redfish-mock.py --dir "$tmp/bmc" --user u --password p \
    >"$tmp/mock.out" 2>/dev/null &
pids+=($!)
for _ in $(seq 50); do [[ -s $tmp/mock.out ]] && break; sleep 0.1; done
bmc=http://127.0.0.1:$(head -n 1 "$tmp/mock.out")
for g in $(seq 1 250); do
    curl -s -o /dev/null -X POST "$bmc/_mock/fault" -d "{\"path\": \"/redfish/v1/Chassis/1U/ThermalSubsystem/CoolantConnectors/GPU$g\", \"mode\": \"hang\", \"seconds\": 0.05}"
done
printf 'u:p\n' >"$tmp/cred"
chmod 600 "$tmp/cred"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$tmp/root"
"${SUPERNODE:-build/rel/supernode}" watch --db none --nvml none --fsroot "$tmp/root" \
    --redfish "$bmc" --redfish-credentials "$tmp/cred" \
    --interval "${interval}s" --listen "127.0.0.1:$port" 2>"$tmp/agent.err" &
pids+=($!)
sleep 0.5
bad=0
printf '%-8s %6s %5s %11s %13s %8s %-8s %s\n' interval leaks psus connectors "all so far" partial healthz "scrape ms"
for r in $(seq 1 "$rounds"); do
    # just before the next interval's deadline would publish: the walk of
    # interval r is in
    sleep "$interval"
    t0=$(date +%s.%N)
    curl -s "http://127.0.0.1:$port/metrics" >"$tmp/m"
    t1=$(date +%s.%N)
    hz=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")
    leaks=$(grep -c '^supernode_leak_detector_ok{' "$tmp/m")
    psus=$(grep -c '^supernode_psu_capacity_watts{' "$tmp/m")
    grep -o '^supernode_coolant_flow_liters_per_minute{branch="[^"]*"' "$tmp/m" |
        sort -u >"$tmp/now"
    cat "$tmp/now" >>"$tmp/seen"
    sort -u -o "$tmp/seen" "$tmp/seen"
    part=$(sed -n 's/^supernode_collector_partial{collector="redfish"} //p' "$tmp/m")
    printf '%-8s %6s %5s %11s %13s %8s %-8s %.1f\n' "$r" "$leaks" "$psus" \
        "$(wc -l <"$tmp/now")" "$(wc -l <"$tmp/seen")" "${part:-?}" "$hz" \
        "$(echo "($t1 - $t0) * 1000" | bc -l)"
    [[ $leaks -eq 250 && $psus -eq 4 ]] || bad=1
done
[[ $(wc -l <"$tmp/seen") -eq 250 ]] || bad=1
exit $bad
