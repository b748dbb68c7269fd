#!/usr/bin/env bash
# suite.sh BUILD: `supernode doctor` end to end: on this machine for real,
# on the fixture trees, and the scripts that make fixtures. Prints
# "N passed, N failed" last.
# covers: health hw
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${SUPERNODE:?}
fix=tests/fixtures/sysfs
fake=${SN_BUILD:-build/test}/lib/fake-nvml.so
# on a fixture tree the machine's own NVML would describe other GPUs
doc() { "$bin" doctor --nvml none "$@"; }
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# 1. the committed hand-made trees are what make-trees.sh writes
same_trees() {
    local t
    bash $fix/make-trees.sh "$tmp/trees" || return 1
    for t in "$tmp"/trees/*; do
        diff -r --no-dereference "$t" "$fix/${t##*/}" >"$tmp/diff" ||
            return 1
    done
}
mkdir -p "$tmp/trees"
if same_trees; then
    ok
else
    bad "hand-made trees differ from make-trees.sh output:"
    head -n 20 "$tmp/diff"
fi

# 2. on this machine, for real: passes or warns or fails honestly, never
#    a usage or runtime error, and always ends with its summary
"$bin" doctor >"$tmp/live.txt" 2>"$tmp/live.err"
rc=$?
if [[ $rc -le 1 ]] &&
    tail -n 1 "$tmp/live.txt" | grep -qE '^(PASS|SKIP|WARN|FAIL): [0-9]+ pass, [0-9]+ warn, [0-9]+ fail, [0-9]+ skipped$'; then
    ok
else
    bad "live doctor: exit $rc"
    head -n 5 "$tmp/live.err" "$tmp/live.txt"
fi
# ...and its exit status says whether a check failed
if grep -q '^FAIL ' "$tmp/live.txt"; then want=1; else want=0; fi
[[ $rc -eq $want ]] && ok || bad "live doctor: exit $rc with want $want"

# 3. JSON: the schema, every field of every check, counts that add up
check_json() { # file
    jq -e '
        .schema == "supernode.doctor/1" and
        (.checks | length) == (.summary.pass + .summary.warn +
                               .summary.fail + .summary.skip) and
        all(.checks[]; (.name | type) == "string" and
            (.status | IN("pass", "warn", "fail", "skip")) and
            (.subject | type) == "string" and
            (.evidence | type) == "string" and
            (.remedy | type) == "string" and
            ((.status == "pass") == (.remedy == "")
             or .status == "skip"))' "$1" >/dev/null
}
if command -v jq >/dev/null; then
    for t in node-good node-trained-down node-aer node-drift captured-vm; do
        doc --fsroot "$fix/$t" --format json >"$tmp/$t.json"
        if check_json "$tmp/$t.json"; then ok; else bad "json of $t"; fi
    done
    "$bin" doctor --format json >"$tmp/live.json"
    if check_json "$tmp/live.json"; then ok; else bad "json of live run"; fi
else
    bad "jq is not installed (scripts/deps.sh installs it)"
fi

# 4. deterministic: the same tree gives the same bytes
SN_FAKE_NVML=tests/fixtures/nvml/bad.yaml "$bin" doctor --nvml "$fake" \
    --fsroot $fix/node-trained-down >"$tmp/a.txt"
SN_FAKE_NVML=tests/fixtures/nvml/bad.yaml "$bin" doctor --nvml "$fake" \
    --fsroot $fix/node-trained-down >"$tmp/b.txt"
if cmp -s "$tmp/a.txt" "$tmp/b.txt"; then ok; else bad "output differs between runs"; fi

# 5. capture-fixture.sh keeps what doctor reads: capturing a tree and
#    running doctor on the copy gives the same checks
for t in node-trained-down node-aer node-drift; do
    CAPTURE_ROOT=$fix/$t bash scripts/capture-fixture.sh --full-log \
        "$tmp/cap-$t" >/dev/null
    doc --fsroot "$fix/$t" | tail -n +2 >"$tmp/orig.txt"
    doc --fsroot "$tmp/cap-$t" | tail -n +2 >"$tmp/copy.txt"
    if cmp -s "$tmp/orig.txt" "$tmp/copy.txt"; then
        ok
    else
        bad "capture of $t changes what doctor sees:"
        diff "$tmp/orig.txt" "$tmp/copy.txt" | head -n 10
    fi
done

# 6. the fake NVML through the CLI: --nvml and $SN_NVML_LIBRARY load it
#    with the same dlopen() path as the driver's library
SN_FAKE_NVML=tests/fixtures/nvml/bad.yaml "$bin" doctor --nvml "$fake" \
    --fsroot $fix/node-good --format json >"$tmp/bad.json"
rc=$?
if [[ $rc -eq 1 ]] && check_json "$tmp/bad.json" &&
    jq -e '[.checks[] | select(.status == "fail") | .name] | sort ==
           ["nvml.devices", "nvml.ecc", "nvml.nvlink", "nvml.power_limit",
            "nvml.processes", "nvml.row_remap", "nvml.throttle",
            "nvml.xid"]' "$tmp/bad.json" >/dev/null; then
    ok
else
    bad "fake NVML, bad.yaml: exit $rc"
    jq -c '.checks[] | select(.status == "fail") | .name' "$tmp/bad.json" | head
fi
SN_NVML_LIBRARY=$fake SN_FAKE_NVML=tests/fixtures/nvml/good.yaml \
    "$bin" doctor --fsroot $fix/node-good >"$tmp/good.txt"
rc=$?
if [[ $rc -eq 0 ]] && grep -q '^PASS  nvml.devices .*4 GPUs in NVML' "$tmp/good.txt"; then
    ok
else
    bad "fake NVML from \$SN_NVML_LIBRARY, good.yaml: exit $rc"
fi
# --nvml wins over the environment
SN_NVML_LIBRARY=/nonexistent.so SN_FAKE_NVML=tests/fixtures/nvml/good.yaml \
    "$bin" doctor --nvml "$fake" --fsroot $fix/node-good >"$tmp/good2.txt"
if cmp -s "$tmp/good.txt" "$tmp/good2.txt"; then ok; else bad "--nvml over env"; fi

echo "$pass passed, $fail failed"
