#!/usr/bin/env bash
# suite.sh BUILD: `supernode watch` as an operator runs it, on loopback
# only: the agent on a fixture host (sysfs tree under --fsroot, the fake
# NVML, the Redfish mock), its /metrics checked by `promtool check
# metrics`, scraped by a real Prometheus (Debian's prometheus) that also
# loads the rule file of `watch rules`; /healthz, --once, --textfile,
# bad options, and a stop by SIGTERM. Prometheus' parts skip, saying so,
# where it is not installed. Prints "N passed, N failed" last.
# covers: watch metrics
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-${SN_BUILD:-build/test}}
sn=${SUPERNODE:-$build/supernode}
[[ $sn == /* ]] || sn=$PWD/$sn
pass=0
fail=0
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}
check() { # name, command...
    local name=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then ok; else
        bad "$name"
        tail -n 15 "$tmp/out" | sed 's/^/  /'
    fi
}

# Wait until the agent at URL has published its first metrics (its
# /healthz no longer says none were), at most $3 seconds; curl options
# (credentials) in $2.
wait_published() {
    local url=$1 opts=$2 limit=${3:-30} i
    for ((i = 0; i < limit * 10; i++)); do
        # shellcheck disable=SC2086
        curl -s $opts "$url/healthz" 2>/dev/null |
            grep -q 'no metrics published yet' || return 0
        sleep 0.1
    done
    return 1
}

# A free TCP port on loopback.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Wait until URL answers (any status), at most $2 seconds.
wait_http() {
    local url=$1 limit=${2:-20} i
    for ((i = 0; i < limit * 10; i++)); do
        curl -s -o /dev/null "$url" && return 0
        sleep 0.1
    done
    return 1
}

fixtures=tests/fixtures/watch
nvml_lib=$build/lib/fake-nvml.so
export SN_FAKE_NVML=$tmp/nvml.yaml
cp tests/fixtures/nvml/good.yaml "$SN_FAKE_NVML"
root=$tmp/root
mkdir -p "$root"
cp -a "$fixtures/host/." "$root/"

# the BMC: the Redfish mock on the fixtures of tests/fixtures/redfish
python3 tests/lib/redfish-mock.py --user watch --password pw \
    >"$tmp/mock.out" 2>"$tmp/mock.err" &
pids+=("$!")
for i in $(seq 1 50); do [[ -s $tmp/mock.out ]] && break; sleep 0.1; done
bmc="http://127.0.0.1:$(head -n 1 "$tmp/mock.out")"
printf 'watch:pw\n' >"$tmp/cred"
chmod 600 "$tmp/cred"
all=(--fsroot "$root" --nvml "$nvml_lib" --redfish "$bmc"
    --redfish-credentials "$tmp/cred" --host node001)

# ---- bad options: exit 2, a sentence, nothing started ------------------
expect_usage() { # name, args...
    local name=$1
    shift
    "$sn" watch "$@" >"$tmp/o" 2>"$tmp/e"
    local rc=$?
    if [[ $rc -eq 2 ]] && grep -q "supernode" "$tmp/e"; then ok; else
        bad "$name: exit $rc"
        cat "$tmp/e"
    fi
}
expect_usage "listen without an address" --listen :10384 --db none
expect_usage "listen with a bad port" --listen 127.0.0.1:70000 --db none
expect_usage "interval zero" --interval 0s --db none
expect_usage "interval without a unit" --interval 15 --db none
if grep -q "^supernode: --interval: " "$tmp/e"; then ok; else
    bad "--interval 15: not the usual '--interval: ...' sentence"
    cat "$tmp/e"
fi
expect_usage "tls cert without key" --tls-cert /etc/hostname --db none
expect_usage "textfile not a directory" --once --textfile /etc/hostname \
    --db none
expect_usage "credentials without url" --redfish-credentials /etc/hostname \
    --db none --once
expect_usage "unknown option" --frobnicate

# ---- --once: one interval printed, promtool accepts it -----------------
check "--once prints the metrics" "$sn" watch --once --db none \
    --spec examples/gb200-nvl72.yaml "${all[@]}"
cp "$tmp/out" "$tmp/once.prom"
for c in nvml hwmon pci net klog redfish; do
    if grep -q "^supernode_collector_up{collector=\"$c\"} 1$" "$tmp/once.prom"
    then ok; else
        bad "--once: collector $c is not up"
        grep "collector $c" "$tmp/once.prom"
    fi
done
if grep -q '^supernode_build_info{version=' "$tmp/once.prom"; then ok; else
    bad "--once output lacks supernode_build_info"
fi
if command -v promtool >/dev/null 2>&1; then
    grep -v '^supernode watch:' "$tmp/once.prom" >"$tmp/once.clean"
    check "promtool check metrics on --once" \
        sh -c "promtool check metrics <'$tmp/once.clean'"
fi

# ---- the agent and the rule file agree: one interval of the agent on
# the fixture host (healthy and faulty NVML, the BMC's low CPU1 branch)
# becomes promtool's input series; for every rule the file must fire
# exactly the subjects the agent's supernode_rule_active names ----------
if command -v promtool >/dev/null 2>&1; then
    "$sn" watch rules examples/gb200-nvl72.yaml -o "$tmp/agree-rules.yml" \
        >/dev/null 2>&1
    for nv in good bad lost pre-ampere none; do
        if [[ $nv == none ]]; then
            lib=none
        else
            lib=$nvml_lib
            cp "tests/fixtures/nvml/$nv.yaml" "$SN_FAKE_NVML"
        fi
        "$sn" watch --once --db none --spec examples/gb200-nvl72.yaml \
            "${all[@]}" --nvml "$lib" 2>/dev/null |
            grep -v '^supernode watch:' >"$tmp/agree.prom"
        if (cd "$tmp" && python3 "$OLDPWD/tests/watch/agree.py" agree.prom \
            agree-rules.yml agree.test.yml >agree.out 2>&1 &&
            promtool test rules agree.test.yml >>agree.out 2>&1); then
            ok
        else
            bad "the rule file and the agent disagree (NVML $nv):"
            tail -n 20 "$tmp/agree.out" | cut -c1-400
        fi
    done
    cp tests/fixtures/nvml/good.yaml "$SN_FAKE_NVML"
fi

# ---- every name is documented, and the rule file and the dashboard use
# only names the agent has: a renamed metric cannot leave them behind ----
documented() { # name: is it in docs/watch.md's tables?
    grep -q "\`$1\`" docs/watch.md
}
undoc=""
for n in $(sed -n 's/^# TYPE \([a-z_0-9:]*\) .*/\1/p' "$tmp/once.prom"); do
    documented "$n" || undoc="$undoc $n"
done
if [[ -z $undoc ]]; then ok; else bad "metrics not in docs/watch.md:$undoc"; fi
"$sn" watch rules examples/gb200-nvl72.yaml -o "$tmp/names.yml" >/dev/null 2>&1
unknown=""
for n in $(grep -oh 'supernode_[a-z_0-9]*' "$tmp/names.yml" \
    contrib/grafana/supernode-watch.json | sort -u); do
    documented "$n" || unknown="$unknown $n"
done
if [[ -s $tmp/names.yml && -z $unknown ]]; then ok; else
    bad "the rule file or the dashboard use names the agent does not have:$unknown"
fi
if python3 -m json.tool contrib/grafana/supernode-watch.json >/dev/null; then
    ok
else
    bad "the Grafana dashboard is not JSON"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
    sed "s|/usr/local/bin/supernode|$sn|" \
        contrib/systemd/supernode-watch.service >"$tmp/supernode-watch.service"
    check "systemd-analyze verify the unit" \
        systemd-analyze verify "$tmp/supernode-watch.service"
fi

# ---- --textfile: written by rename, readable whole ---------------------
mkdir -p "$tmp/textfile"
check "--textfile --once" "$sn" watch --once --db none --fsroot "$root" \
    --nvml none --textfile "$tmp/textfile"
if [[ -s $tmp/textfile/supernode.prom ]] &&
    [[ -z $(find "$tmp/textfile" -name '.*' -newer "$tmp/textfile" 2>/dev/null) ]] &&
    tail -c 1 "$tmp/textfile/supernode.prom" | od -c | grep -q '\\n'; then
    ok
else
    bad "--textfile left no whole supernode.prom (or a temporary file)"
    ls -la "$tmp/textfile"
fi

# ---- the agent served, scraped by Prometheus ---------------------------
port=$(free_port)
"$sn" watch --db "$tmp/watch.db" "${all[@]}" --spec examples/gb200-nvl72.yaml \
    --listen "127.0.0.1:$port" --interval 0.5s \
    >"$tmp/agent.out" 2>&1 &
agent=$!
pids+=("$agent")
if wait_http "http://127.0.0.1:$port/" 20; then ok; else
    bad "the agent did not start listening"
    cat "$tmp/agent.out"
fi
wait_published "http://127.0.0.1:$port" ""
check "/healthz is ok" curl -sf "http://127.0.0.1:$port/healthz"
check "/metrics answers" curl -sf -o "$tmp/scrape.prom" \
    "http://127.0.0.1:$port/metrics"
if command -v promtool >/dev/null 2>&1; then
    check "promtool check metrics on a scrape" \
        sh -c "promtool check metrics <'$tmp/scrape.prom'"
fi
curl -s -D "$tmp/h" -o "$tmp/om" \
    -H 'Accept: application/openmetrics-text; version=1.0.0' \
    "http://127.0.0.1:$port/metrics"
if grep -qi '^content-type: application/openmetrics-text' "$tmp/h" &&
    tail -n 1 "$tmp/om" | grep -qx '# EOF'; then ok; else
    bad "OpenMetrics not served on request"
fi
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST \
    "http://127.0.0.1:$port/metrics")
if [[ $code == 405 ]]; then ok; else bad "POST answered $code, not 405"; fi

if command -v prometheus >/dev/null 2>&1; then
    pport=$(free_port)
    "$sn" watch rules examples/gb200-nvl72.yaml -o "$tmp/rules.yml" \
        >/dev/null 2>&1 || : >"$tmp/rules.yml"
    cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ['$tmp/rules.yml']
scrape_configs:
  - job_name: supernode
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
    [[ -s $tmp/rules.yml ]] || sed -i '/^rule_files/d' "$tmp/prometheus.yml"
    prometheus --config.file="$tmp/prometheus.yml" \
        --storage.tsdb.path="$tmp/tsdb" \
        --web.listen-address="127.0.0.1:$pport" >"$tmp/prom.out" 2>&1 &
    pids+=("$!")
    if wait_http "http://127.0.0.1:$pport/-/ready" 30; then ok; else
        bad "prometheus did not start"
        tail -n 20 "$tmp/prom.out"
    fi
    q="http://127.0.0.1:$pport/api/v1/query"
    up=""
    for i in $(seq 1 40); do
        up=$(curl -s "$q" --data-urlencode 'query=up{job="supernode"}' |
            python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' 2>/dev/null)
        [[ $up == 1 ]] && break
        sleep 0.5
    done
    if [[ $up == 1 ]]; then ok; else bad "Prometheus does not see the agent up"; fi
    n=$(curl -s "$q" --data-urlencode \
        'query=count(supernode_collector_up{job="supernode"})' |
        python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)' 2>/dev/null)
    if [[ ${n:-0} -ge 4 ]]; then ok; else
        bad "Prometheus has $n supernode_collector_up series, want >= 4"
    fi
    # the host tree's GPU trained at 16 GT/s x8 of 32 x16: the agent's
    # rule holds, Prometheus has it, and the rule file's alert is pending
    # (its for: is 5 minutes) or firing
    active=""
    for i in $(seq 1 40); do
        active=$(curl -s "$q" --data-urlencode \
            'query=supernode_rule_active{rule="link_degraded"}' |
            python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["metric"]["subject"] if r else "")' 2>/dev/null)
        [[ -n $active ]] && break
        sleep 0.5
    done
    if [[ $active == "pcie 0000:17:00.0" ]]; then ok; else
        bad "Prometheus has no active link_degraded rule (got '$active')"
    fi
    state=""
    for i in $(seq 1 40); do
        state=$(curl -s "http://127.0.0.1:$pport/api/v1/alerts" |
            python3 -c 'import json,sys; a=json.load(sys.stdin)["data"]["alerts"]; print(" ".join(sorted(x["state"] for x in a if x["labels"].get("rule")=="link_degraded")))' 2>/dev/null)
        [[ -n $state ]] && break
        sleep 0.5
    done
    if [[ $state == pending || $state == firing ]]; then ok; else
        bad "Prometheus' alert for link_degraded is '$state', not pending"
    fi
    if [[ -s $tmp/rules.yml ]]; then
        health=$(curl -s "http://127.0.0.1:$pport/api/v1/rules" |
            python3 -c 'import json,sys; g=json.load(sys.stdin)["data"]["groups"]; print(sum(1 for x in g for r in x["rules"] if r.get("health")=="ok"))' 2>/dev/null)
        if [[ ${health:-0} -ge 1 ]]; then ok; else
            bad "Prometheus evaluated no rule of the rule file healthily"
        fi
    fi
else
    echo "skip: prometheus not on PATH (Debian package prometheus)"
fi

# ---- a CPU host: the spec gives the node no accelerators (node:
# {accelerators: 0}), so NVML, absent there, is not read and the agent
# stays healthy past three intervals --------------------------------------
cport=$(free_port)
"$sn" watch --db none --fsroot "$root" --spec examples/one-host.yaml \
    --listen "127.0.0.1:$cport" --interval 0.2s >"$tmp/cpu.out" 2>&1 &
cpu_agent=$!
pids+=("$cpu_agent")
wait_http "http://127.0.0.1:$cport/" 20
sleep 1.5
code=$(curl -s -o "$tmp/cpu.health" -w '%{http_code}' \
    "http://127.0.0.1:$cport/healthz")
curl -s -o "$tmp/cpu.prom" "http://127.0.0.1:$cport/metrics"
if [[ $code == 200 ]] &&
    ! grep -q 'collector="nvml"' "$tmp/cpu.prom" &&
    ! grep -q 'rule="device_missing"' "$tmp/cpu.prom"; then ok; else
    bad "a CPU host (one-host.yaml): /healthz $code, or NVML read, or a GPU missing"
    cat "$tmp/cpu.health"
    grep 'nvml\|device_missing' "$tmp/cpu.prom" | head -5
fi
kill "$cpu_agent" 2>/dev/null

# ---- basic authentication from a file only its owner reads --------------
printf 'prom:s3cret\n' >"$tmp/auth"
chmod 644 "$tmp/auth"
"$sn" watch --db none --nvml none --fsroot "$root" --basic-auth "$tmp/auth" \
    --listen "127.0.0.1:$(free_port)" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "chmod 600" "$tmp/e"; then ok; else
    bad "a credentials file readable by others: exit $rc"
    cat "$tmp/e"
fi
chmod 600 "$tmp/auth"
aport=$(free_port)
"$sn" watch --db none --nvml none --fsroot "$root" --basic-auth "$tmp/auth" \
    --listen "127.0.0.1:$aport" --interval 1s >"$tmp/auth.out" 2>&1 &
pids+=("$!")
wait_http "http://127.0.0.1:$aport/" 20
wait_published "http://127.0.0.1:$aport" "-u prom:s3cret"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$aport/metrics")
code2=$(curl -s -o /dev/null -w '%{http_code}' -u prom:s3cret \
    "http://127.0.0.1:$aport/metrics")
if [[ $code == 401 && $code2 == 200 ]]; then ok; else
    bad "basic auth: $code without, $code2 with the password"
fi

# ---- SIGTERM stops the agent cleanly -----------------------------------
kill -TERM "$agent"
# (up to 30 s: the sanitizer build on a loaded machine)
for i in $(seq 1 300); do kill -0 "$agent" 2>/dev/null || break; sleep 0.1; done
if ! kill -0 "$agent" 2>/dev/null; then
    wait "$agent"
    rc=$?
    if [[ $rc -eq 0 ]] && grep -q "stopping (signal 15)" "$tmp/agent.out"; then
        ok
    else
        bad "SIGTERM: exit $rc"
        tail -n 5 "$tmp/agent.out"
    fi
else
    bad "the agent did not stop within 30 s of SIGTERM"
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
