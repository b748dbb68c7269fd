#!/usr/bin/env bash
# suite.sh BUILD: `supernode check` with the node-health checks it makes
# while measuring, on the cpu backend, pointed at the doctor's fixture
# trees (--fsroot) and the fake NVML: two ranks on one host run them
# once; a trained-down GPU link is a FAIL finding naming the host and the
# device with doctor's remedy (exit 1), stored with the run and shown by
# `check --run` and `runs show`, and travels in the run's document
# (export, import, --results); a good node gives no health finding;
# warnings do not raise the verdict; --no-doctor skips them; bad options
# end before anything is stored; a probe stuck in the driver meets the
# deadline. Tiny sizes: this checks behaviour.
# covers: bench health diagnose store
# runs: slow
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${SUPERNODE:?}
fake=${SN_BUILD:-build/test}/lib/fake-nvml.so
supp=$PWD/tests/bench/lsan-mpi.supp
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader
# the machine's own NVML stays out unless a case names one
unset SN_NVML_LIBRARY HWLOC_FSROOT
quiet_asan="detect_leaks=0:abort_on_error=0"
host=$(hostname)
trees=tests/fixtures/sysfs
spec=examples/one-host.yaml
small=(--tests memory --iters 3)

ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1: $2"
    sed 's/^/  stdout: /' "$tmp/out" | tail -n 25
    grep -v 'Suppressions\|count  *bytes' "$tmp/err" | sed 's/^/  stderr: /' |
        tail -n 10
}
has() { grep -qF -- "$2" "$1"; }

# check ARGS...: one lone process (a job of one rank), leaks unchecked
check1() {
    ASAN_OPTIONS=$quiet_asan timeout 120 "$bin" check --spec "$spec" \
        "${small[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
}

if ! command -v jq >/dev/null; then
    echo "FAIL jq is not installed (scripts/deps.sh installs it)"
    echo "0 passed, 1 failed"
    exit 1
fi

# how many checks doctor itself makes on the trained-down tree, by the
# same rule check uses (the spec's node expectations)
"$bin" doctor --spec "$spec" --nvml none --fsroot "$trees/node-trained-down" \
    --format json >"$tmp/doctor.json" 2>/dev/null
ndoc=$(jq '.checks | length' "$tmp/doctor.json")
nfail=$(jq '[.checks[] | select(.status == "fail")] | length' \
    "$tmp/doctor.json")

# 1. two ranks on one host, a GPU link trained down: the checks run once,
#    the FAIL is a finding with doctor's remedy, exit 1; leak checking on
#    with Open MPI's own allocations suppressed
db=$tmp/r.db
ASAN_OPTIONS="fast_unwind_on_malloc=0:detect_leaks=1:abort_on_error=0" \
LSAN_OPTIONS="suppressions=$supp" \
    timeout 120 mpirun -np 2 --oversubscribe "$bin" check --spec "$spec" \
    "${small[@]}" --db "$db" --nvml none \
    --fsroot "$trees/node-trained-down" --json "$tmp/c.json" \
    --junit "$tmp/c.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
why=""
[[ $rc -eq 1 ]] || why+=" exit $rc, expected 1;"
has "$tmp/out" "FAIL health $host  0000:83:00.0 gpu 10de:2330 slot GPU2" ||
    why+=" no health finding for GPU2;"
has "$tmp/out" "doctor pcie.link on $host: trained down: Gen5 x8" ||
    why+=" no evidence;"
has "$tmp/out" "next: reseat the card" || why+=" no remedy as next step;"
has "$tmp/out" "node health (doctor, 1 host): $nfail FAIL" ||
    why+=" no node health section with $nfail FAIL;"
# once per host: each failing device once among the findings and once in
# the section, the JSON holding exactly doctor's checks
n=$(grep -c "pcie.link 0000:83:00.0 gpu 10de:2330 slot GPU2" "$tmp/out")
[[ $n -eq 1 ]] || why+=" GPU2's check listed $n times in the section;"
n=$(grep -c "^FAIL health " "$tmp/out")
[[ $n -eq $nfail ]] || why+=" $n health findings, doctor has $nfail FAILs;"
jq -e --argjson n "$ndoc" --argjson f "$nfail" --arg h "$host" '
    .verdict == "FAIL" and (.health | length) == $n and
    ([.health[] | select(.status == "FAIL")] | length) == $f and
    all(.health[]; .host == $h) and .counts.health.FAIL == $f and
    ([.findings[] | select(.kind == "health")] | length) == $f and
    ([.findings[] | select(.kind == "health")][0] |
        .severity == "FAIL" and .subject == $h and .next_step != "")
    ' "$tmp/c.json" >/dev/null || why+=" JSON health wrong;"
has "$tmp/c.xml" '<testsuite name="health" tests="'"$ndoc"'" failures="'"$nfail"'"' ||
    why+=" no JUnit health suite;"
has "$tmp/c.xml" '<failure type="health"' || why+=" no JUnit failure;"
has "$tmp/err" "ERROR: AddressSanitizer" && why+=" asan error;"
has "$tmp/err" "ERROR: LeakSanitizer" && why+=" leak;"
[[ -z "$why" ]] && ok "two ranks, trained-down link: FAIL finding, once per host" ||
    bad "two ranks, trained-down link" "$why"

# 2. the checks are stored with the run: runs show lists them, check
#    --run judges them again, and they are columns a query can find
ASAN_OPTIONS=$quiet_asan "$bin" runs show 1 --db "$db" >"$tmp/out" 2>"$tmp/err"
why=""
has "$tmp/out" "run 1: complete, FAIL" || why+=" run not FAIL;"
has "$tmp/out" "node health (doctor, 1 host): $nfail FAIL" ||
    why+=" runs show lacks node health;"
has "$tmp/out" "FAIL pcie.link 0000:83:00.0 gpu 10de:2330 slot GPU2" ||
    why+=" runs show lacks the failed link;"
ASAN_OPTIONS=$quiet_asan "$bin" check --spec "$spec" --run 1 --db "$db" \
    >"$tmp/out2" 2>>"$tmp/err"
rc=$?
[[ $rc -eq 1 ]] || why+=" check --run exit $rc;"
has "$tmp/out2" "FAIL health $host  0000:83:00.0 gpu 10de:2330 slot GPU2" ||
    why+=" check --run lacks the health finding;"
if command -v sqlite3 >/dev/null; then
    n=$(sqlite3 "$db" "SELECT count(*) FROM health WHERE run_id = 1 AND
        name = 'pcie.link' AND status = 'FAIL'")
    [[ $n -eq $(jq '[.checks[] | select(.status == "fail" and
        .name == "pcie.link")] | length' "$tmp/doctor.json") ]] ||
        why+=" $n pcie.link FAIL rows;"
fi
[[ -z "$why" ]] && ok "stored with the run: runs show, check --run" ||
    bad "stored with the run" "$why"

# 3. and they travel with the run's document: exported, imported into
#    another database, judged from the file
why=""
ASAN_OPTIONS=$quiet_asan "$bin" runs show 1 --db "$db" --format json \
    >"$tmp/run1.json" 2>"$tmp/err"
jq -e --argjson n "$ndoc" '(.health | length) == $n' "$tmp/run1.json" \
    >/dev/null || why+=" the document lacks the checks;"
ASAN_OPTIONS=$quiet_asan "$bin" runs import "$tmp/run1.json" \
    --db "$tmp/copy.db" >/dev/null 2>>"$tmp/err" || why+=" import failed;"
ASAN_OPTIONS=$quiet_asan "$bin" runs show 1 --db "$tmp/copy.db" \
    >"$tmp/out" 2>>"$tmp/err"
has "$tmp/out" "node health (doctor, 1 host): $nfail FAIL" ||
    why+=" the imported run lacks them;"
ASAN_OPTIONS=$quiet_asan "$bin" check --spec "$spec" --no-store \
    --results "$tmp/run1.json" >"$tmp/out" 2>>"$tmp/err"
rc=$?
[[ $rc -eq 1 ]] || why+=" check --results exit $rc;"
has "$tmp/out" "FAIL health $host  0000:83:00.0 gpu 10de:2330 slot GPU2" ||
    why+=" check --results lacks the health finding;"
[[ -z "$why" ]] && ok "in the run's document: export, import, --results" ||
    bad "in the run's document" "$why"

# 4. a good node: no health finding, exit 0
check1 --db "$tmp/good.db" --nvml none --fsroot "$trees/node-good" \
    --json "$tmp/good.json"
rc=$?
why=""
[[ $rc -eq 0 ]] || why+=" exit $rc;"
has "$tmp/out" "check: PASS" || why+=" not PASS;"
has "$tmp/out" "FAIL health" && why+=" a health finding;"
has "$tmp/out" "node health (doctor, 1 host):" || why+=" no section;"
jq -e '.verdict == "PASS" and (.health | length) > 20 and
    .counts.health.FAIL == 0' "$tmp/good.json" >/dev/null ||
    why+=" JSON wrong;"
[[ -z "$why" ]] && ok "good node: no health finding, exit 0" ||
    bad "good node" "$why"

# 5. warnings are shown and leave the verdict alone: the captured virtual
#    machine with a CPU left on 'powersave' (WARN)
cp -r "$trees/captured-vm" "$tmp/vm"
mkdir -p "$tmp/vm/sys/devices/system/cpu/cpu0/cpufreq"
echo powersave >"$tmp/vm/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
check1 --no-store --nvml none --fsroot "$tmp/vm"
rc=$?
why=""
[[ $rc -eq 0 ]] || why+=" exit $rc;"
has "$tmp/out" "check: PASS, 0 findings" || why+=" the verdict moved;"
grep -q '^    WARN ' "$tmp/out" || why+=" no WARN listed;"
[[ -z "$why" ]] && ok "doctor WARNs shown, verdict PASS" ||
    bad "doctor WARNs" "$why"

# 6. the fake NVML through --nvml: a GPU's ECC errors fail on the good tree
SN_FAKE_NVML=tests/fixtures/nvml/bad.yaml check1 --no-store \
    --nvml "$fake" --fsroot "$trees/node-good"
rc=$?
why=""
[[ $rc -eq 1 ]] || why+=" exit $rc;"
grep -q "^FAIL health $host  .*" "$tmp/out" || why+=" no health finding;"
has "$tmp/out" "doctor nvml." || why+=" no NVML finding;"
[[ -z "$why" ]] && ok "fake NVML through --nvml: FAIL" ||
    bad "fake NVML" "$why"

# 7. --no-doctor: no section, nothing stored
check1 --db "$tmp/nod.db" --no-doctor --json "$tmp/nod.json"
rc=$?
why=""
[[ $rc -eq 0 ]] || why+=" exit $rc;"
has "$tmp/out" "node health" && why+=" section shown;"
jq -e '(.health | length) == 0' "$tmp/nod.json" >/dev/null ||
    why+=" JSON has health;"
ASAN_OPTIONS=$quiet_asan "$bin" runs show 1 --db "$tmp/nod.db" >"$tmp/out" 2>&1
has "$tmp/out" "node health" && why+=" stored;"
[[ -z "$why" ]] && ok "--no-doctor skips the checks" || bad "--no-doctor" "$why"

# 8. bad options end every rank before a run is recorded
check1 --db "$tmp/bad.db" --nvml none --fsroot "$trees/no-such-tree"
rc=$?
why=""
[[ $rc -eq 2 ]] || why+=" exit $rc;"
has "$tmp/err" "no-such-tree: cannot use as root" || why+=" message;"
[[ -e "$tmp/bad.db" ]] && why+=" database created;"
check1 --no-store --no-doctor --fsroot "$trees/node-good"
rc2=$?
[[ $rc2 -eq 2 ]] || why+=" --no-doctor with --fsroot exit $rc2;"
has "$tmp/err" "not with --no-doctor" || why+=" no usage message;"
check1 --no-store --matrix tests/fixtures/node/bad-unknown-key.yaml
rc3=$?
[[ $rc3 -eq 2 ]] || why+=" bad matrix exit $rc3;"
[[ -z "$why" ]] && ok "bad root, conflicting options, bad matrix: exit 2" ||
    bad "bad options" "$why"

# 9. a probe stuck in the driver: the deadline ends the job, naming the
#    host, and the run stays incomplete in the store
t0=$SECONDS
SN_FAKE_NVML=tests/fixtures/nvml/hang.yaml ASAN_OPTIONS=$quiet_asan \
    timeout 50 mpirun -np 2 --oversubscribe "$bin" check --spec "$spec" \
    "${small[@]}" --db "$tmp/hang.db" --nvml "$fake" \
    --fsroot "$trees/node-good" --doctor-timeout 2 >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$((SECONDS - t0))
why=""
[[ $rc -ne 0 && $rc -ne 124 ]] || why+=" exit $rc;"
[[ $took -lt 40 ]] || why+=" took $took s;"
has "$tmp/err" "the node-health checks on $host did not finish within 2 s" ||
    why+=" no message naming the host;"
ASAN_OPTIONS=$quiet_asan "$bin" runs list --db "$tmp/hang.db" >"$tmp/out" 2>&1
grep -q " incomplete " "$tmp/out" || why+=" no incomplete run stored;"
[[ -z "$why" ]] && ok "a stuck probe: the deadline ends the job ($took s)" ||
    bad "stuck probe" "$why"

# 10. the cpu backend against a GPU design: the pairs inside the NVLink
#     domain are not judged against NVLink's rate ("1% of 450 GB/s") but
#     said to be beyond the backend, with --backend cuda as the way
printf 'accelerator: h100-sxm5-80gb\nsupernode: {accelerators: 2, per_node: 2}\n' \
    >"$tmp/gpu2.yaml"
ASAN_OPTIONS=$quiet_asan timeout 120 mpirun -np 2 --oversubscribe "$bin" \
    check --spec "$tmp/gpu2.yaml" --tests pairs --iters 3 --no-doctor \
    --db "$tmp/gpu2.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
why=""
[[ $rc -eq 0 ]] || why+=" exit $rc;"
has "$tmp/out" "the cpu backend cannot measure the NVLink 4 fabric of this design" ||
    why+=" no backend finding;"
has "$tmp/out" "run check with --backend cuda" || why+=" no next step;"
! grep -q "% of 450" "$tmp/out" || why+=" judged against NVLink;"
[[ -z "$why" ]] && ok "cpu backend on a GPU design: the fabric is not judged" ||
    bad "cpu backend, GPU design" "$why"

# 11. ranks where the spec puts them: two ranks on this host against the
#     4-host cluster are refused naming them (they would read as a slow
#     network); --allow-colocated measures and says so in a finding; the
#     spec's hosts: names the host each node must run on
ASAN_OPTIONS=$quiet_asan timeout 120 mpirun -np 2 --oversubscribe "$bin" \
    check --spec examples/cpu-cluster.yaml --tests pairs --iters 3 \
    --no-doctor --no-store >"$tmp/out" 2>"$tmp/err"
rc=$?
why=""
[[ $rc -eq 2 ]] || why+=" exit $rc, expected 2;"
has "$tmp/err" "ranks 0 and 1 both run on $host, but the spec puts them on nodes 0 and 1" ||
    why+=" mismatch not named;"
ASAN_OPTIONS=$quiet_asan timeout 120 mpirun -np 2 --oversubscribe "$bin" \
    check --spec examples/cpu-cluster.yaml --tests pairs --iters 3 \
    --no-doctor --no-store --allow-colocated >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc -eq 0 ]] || why+=" allowed: exit $rc;"
has "$tmp/out" "WARN systemic placement" || why+=" no placement finding;"
has "$tmp/out" "colocated (--allow-colocated)" || why+=" not said;"
sed 's/^racks:/hosts: [n0, n1, n2, n3]\nracks:/' examples/cpu-cluster.yaml \
    >"$tmp/hosts.yaml"
ASAN_OPTIONS=$quiet_asan timeout 120 mpirun -np 1 "$bin" \
    check --spec "$tmp/hosts.yaml" --tests pairs --iters 3 --no-doctor \
    --no-store >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] || why+=" hosts: exit $rc;"
has "$tmp/err" "rank 0 runs on $host, but the spec's hosts puts its node 0 on n0" ||
    why+=" hosts mismatch not named;"
[[ -z "$why" ]] && ok "placement: refused, allowed with a finding, hosts:" ||
    bad "placement" "$why"

# another process holds the database's write lock (an open sqlite3
# session) for the whole job: nothing measured is lost. The writes wait
# --db-wait, the judged run (results, findings, node health) goes to a
# file beside the database that runs import stores, --json and --junit
# are written, and the exit status is the verdict's
why=""
db=$tmp/held.db
"$bin" runs import tests/fixtures/check/run-healthy-1.json --db "$db" \
    >/dev/null 2>&1
mkfifo "$tmp/hold"
sqlite3 "$db" <"$tmp/hold" &
holder=$!
exec 3>"$tmp/hold"
echo "BEGIN IMMEDIATE; CREATE TABLE hold (x);" >&3
# until the holder has the lock (a write that does not wait is refused):
# a pause of fixed length was not always enough on a loaded machine
for _ in $(seq 600); do
    sqlite3 -cmd '.timeout 0' "$db" 'BEGIN IMMEDIATE; ROLLBACK;' \
        >/dev/null 2>&1 || break
    sleep 0.1
done
ASAN_OPTIONS=$quiet_asan timeout 120 mpirun -np 2 --oversubscribe "$bin" \
    check --spec "$spec" "${small[@]}" --db "$db" --db-wait 2 --nvml none \
    --fsroot "$trees/node-trained-down" --json "$tmp/held.json" \
    --junit "$tmp/held.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
exec 3>&-
wait "$holder"
[[ $rc -eq 1 ]] || why+=" exit $rc, expected 1 (the verdict);"
has "$tmp/err" "another process holds the write lock" || why+=" lock not named;"
has "$tmp/err" "is kept in $db.run-" || why+=" spool not named;"
spool=$(ls "$db".run-*.json 2>/dev/null)
jq -e '.verdict == "FAIL"' "$tmp/held.json" >/dev/null 2>&1 ||
    why+=" --json not written;"
xmllint --noout "$tmp/held.xml" 2>/dev/null || why+=" --junit not written;"
if [[ -n "$spool" ]]; then
    n=$(jq '.results | length' "$spool")
    nh=$(jq '.health | length' "$spool")
    "$bin" runs import "$spool" --db "$db" >/dev/null 2>&1 ||
        why+=" spool not imported;"
    id=$(sqlite3 "$db" "SELECT max(id) FROM runs")
    [[ $n -gt 0 && $(sqlite3 "$db" "SELECT count(*) FROM results WHERE run_id = $id") == "$n" ]] ||
        why+=" imported results differ ($n in the file);"
    [[ $nh -gt 0 && $(sqlite3 "$db" "SELECT count(*) FROM health WHERE run_id = $id") == "$nh" ]] ||
        why+=" node health not kept ($nh in the file);"
    [[ $(sqlite3 "$db" "SELECT complete || verdict FROM runs WHERE id = $id") == 1FAIL ]] ||
        why+=" imported run not complete with its verdict;"
else
    why+=" no spool file;"
fi
[[ -z "$why" ]] && ok "database held by another writer: run kept, imported" ||
    bad "database held" "$why"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
