#!/usr/bin/env bash
# suite.sh BUILD: scripts/deps.sh against a fake apt-get and dpkg-query,
# so the package-lock handling is tested without touching the machine's
# packages: a lock held at boot is waited for and said, a lock held too
# long fails with what to do, other apt errors are not waited on.
# covers: none
set -uo pipefail
cd "$(dirname "$0")/../.."
pass=0
fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; fail=$((fail + 1)); }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# dpkg-query: every package installed but those listed in $tmp/missing
cat >"$tmp/dpkg-query" <<'SH'
#!/usr/bin/env bash
p=${!#}
grep -qx "$p" "$FAKE/missing" 2>/dev/null && exit 1
printf 'install ok installed'
SH
# apt-get: logs its call; fails on the lock while $FAKE/locked counts down
# (or for ever when it holds "always"), with apt 2.6's own message
cat >"$tmp/apt-get" <<'SH'
#!/usr/bin/env bash
echo "$*" >>"$FAKE/calls"
n=$(cat "$FAKE/locked" 2>/dev/null || echo 0)
if [[ $n == always || $n -gt 0 ]]; then
    [[ $n == always ]] || echo $((n - 1)) >"$FAKE/locked"
    echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)" >&2
    echo "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?" >&2
    exit 100
fi
if [[ -f $FAKE/unknown && $* == *install* ]]; then
    echo "E: Unable to locate package libnothing-dev" >&2
    exit 100
fi
exit 0
SH
chmod +x "$tmp/dpkg-query" "$tmp/apt-get"

run() { # case name: runs deps.sh as root against the fakes
    rm -f "$tmp/calls" "$tmp/out" "$tmp/err"
    FAKE=$tmp SN_APT_GET=$tmp/apt-get SN_DPKG_QUERY=$tmp/dpkg-query \
        SN_APT_RETRY_S=0.1 SN_APT_LOCK_WAIT=${WAIT:-30} \
        bash scripts/deps.sh >"$tmp/out" 2>"$tmp/err"
}

if [[ $(id -u) -ne 0 ]]; then
    echo "SKIP deps: scripts/deps.sh installs as root only (not root here)"
    echo "0 passed, 0 failed"
    exit 0
fi

# nothing missing: apt is never called
: >"$tmp/missing"
run; rc=$?
if [[ $rc -eq 0 && ! -f $tmp/calls ]]; then ok nothing-missing
else bad nothing-missing "exit $rc, calls: $(cat "$tmp/calls" 2>/dev/null)"; fi

# the lock held for three tries, then free: waited for, said, installed
echo jq >"$tmp/missing"
echo 3 >"$tmp/locked"
run; rc=$?
if [[ $rc -eq 0 ]] &&
    grep -q 'another package manager is running (held by process 4242 (unattended-upgr)); waiting up to 30 s' "$tmp/err" &&
    grep -q 'the package lock was free after' "$tmp/err" &&
    [[ $(grep -c 'install' "$tmp/calls") -eq 4 ]] &&
    grep -q 'DPkg::Lock::Timeout=10 install -y -q --no-install-recommends jq' "$tmp/calls"; then
    ok lock-waited
else
    bad lock-waited "exit $rc; $(cat "$tmp/err"); calls: $(cat "$tmp/calls")"
fi
if [[ $(grep -c 'another package manager is running' "$tmp/err") -eq 1 ]]; then
    ok lock-said-once
else
    bad lock-said-once "$(cat "$tmp/err")"
fi

# the lock never freed: gives up after the wait with what to do
echo always >"$tmp/locked"
WAIT=1 run; rc=$?
if [[ $rc -ne 0 ]] &&
    [[ $(grep -c 'another package manager held the package lock for [0-9]* s' "$tmp/err") -eq 1 ]] &&
    grep -q 'Could not get lock' "$tmp/err" && ! grep -q ' update' "$tmp/calls"; then
    ok lock-gave-up
else
    bad lock-gave-up "exit $rc; $(cat "$tmp/err")"
fi

# another error: no waiting; the lists are updated once and apt's own
# error reaches the user
echo 0 >"$tmp/locked"
touch "$tmp/unknown"
run; rc=$?
if [[ $rc -ne 0 ]] && ! grep -q 'waiting' "$tmp/err" &&
    grep -q 'Unable to locate package libnothing-dev' "$tmp/err" &&
    [[ $(grep -c '^-o DPkg::Lock::Timeout=10 update' "$tmp/calls") -eq 1 ]]; then
    ok other-error-not-waited
else
    bad other-error-not-waited "exit $rc; $(cat "$tmp/err"); calls: $(cat "$tmp/calls" 2>/dev/null)"
fi
rm -f "$tmp/unknown"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
