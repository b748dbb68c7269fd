#!/usr/bin/env bash
# suite.sh BUILD: the spec corpus. Every tests/fixtures/specs/bad/*.yaml
# opens with "# expect: LINE:COL: text"; loading it must exit 2 with
# "FILE:LINE:COL: text" on stderr and no crash or sanitizer report, through
# `spec check` and, where the build has it, `plan`. Every good fixture must
# load. Generated here rather than committed: 10 MB of garbage, 3 MB of
# random bytes, 100,000 levels of nesting, 5,000 explicit switches. Last,
# every built-in catalog name must appear in docs/catalog.md.
# covers: spec plan
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${SUPERNODE:?}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the bad corpus goes through `plan` once the build has it (the command
# users run), else through `spec check`; good fixtures through both
cmds=("spec check")
bad_cmd="spec check"
if "$bin" help plan >/dev/null 2>&1; then
    cmds+=("plan")
    bad_cmd="plan"
fi

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $1"
    shift
    printf '  %s\n' "$@"
}

# run CMD FILE: sets rc, out, err; a crash or sanitizer report fails
run() {
    local cmd=$1 file=$2
    # shellcheck disable=SC2086
    "$bin" $cmd "$file" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    err=$(head -c 4000 "$tmp/err")
}

sane() { # name: no sanitizer output, no signal
    if [[ $rc -ge 128 ]] || grep -qE 'Sanitizer|runtime error:' "$tmp/err"; then
        bad "$1" "crashed (exit $rc)" "$(head -n 5 "$tmp/err")"
        return 1
    fi
    return 0
}

expect_error() { # name file cmd want
    local name=$1 file=$2 cmd=$3 want=$4
    run "$cmd" "$file"
    sane "$name ($cmd)" || return
    if [[ $rc -ne 2 ]]; then
        bad "$name ($cmd)" "exit $rc, expected 2" "$err"
    elif [[ "$err" != *"$file:$want"* ]]; then
        bad "$name ($cmd)" "stderr lacks: $file:$want" "stderr: $err"
    else
        ok
    fi
}

for f in tests/fixtures/specs/bad/*.yaml; do
    want=$(head -n 1 "$f" | sed -n 's/^# expect: //p')
    if [[ -z "$want" ]]; then
        bad "$f" "first line is not '# expect: LINE:COL: text'"
        continue
    fi
    expect_error "$(basename "$f")" "$f" "$bad_cmd" "$want"
done

for f in tests/fixtures/specs/good/*.yaml; do
    for cmd in "${cmds[@]}"; do
        run "$cmd" "$f"
        sane "$(basename "$f") ($cmd)" || continue
        if [[ $rc -ne 0 ]]; then
            bad "$(basename "$f") ($cmd)" "exit $rc, expected 0" "$err"
        else
            ok
        fi
    done
done

# 10 MB of YAML-ish garbage: refused by size, at once
yes 'key: [value, {x: ' | head -c 10485760 >"$tmp/garbage-10mb.yaml"
expect_error garbage-10mb "$tmp/garbage-10mb.yaml" "spec check" \
    "1:1: the spec is 10485760 bytes"

# 3 MB of random bytes from a fixed seed: refused where the first
# non-text byte is, without a crash
perl -e 'srand(42); print map { chr(int(rand(256))) } 1..3000000' \
    >"$tmp/random-3mb.yaml"
run "spec check" "$tmp/random-3mb.yaml"
if sane random-3mb && [[ $rc -eq 2 ]] &&
    [[ "$err" =~ random-3mb\.yaml:[0-9]+:[0-9]+:\  ]]; then
    ok
else
    bad random-3mb "exit $rc, expected 2 and a located message" "$err"
fi

# 100,000 levels of nesting stop at the YAML depth cap
head -c 100000 /dev/zero | tr '\0' '[' >"$tmp/deep.yaml"
expect_error deep-100k "$tmp/deep.yaml" "spec check" \
    "1:33: nested deeper than 32 levels"

# a large valid explicit network loads quickly (names are indexed)
{
    printf 'accelerator: h100-sxm5-80gb\nsupernode: {accelerators: 8}\n'
    printf 'supernodes: 5000\nscaleout:\n  topology: explicit\n'
    printf '  nics_per_node: 1\n  switches:\n'
    awk 'BEGIN { for (i = 0; i < 5000; i++)
                 printf "    - {name: s%d, nodes: [%d]}\n", i, i }'
    printf '  links:\n'
    awk 'BEGIN { for (i = 1; i < 5000; i++)
                 printf "    - {between: [s%d, s0]}\n", i }'
} >"$tmp/explicit-5k.yaml"
run "spec check" "$tmp/explicit-5k.yaml"
if sane explicit-5k && [[ $rc -eq 0 ]]; then
    ok
else
    bad explicit-5k "exit $rc" "$err"
fi

# the catalog reference lists every built-in entry
missing=()
while IFS= read -r name; do
    grep -qF "\`$name\`" docs/catalog.md || missing+=("$name")
done < <("$bin" catalog list --format json |
    sed -n 's/^ *"name": "\(.*\)",$/\1/p' | sed 's/^megatron-.*/megatron-*/' |
    sort -u)
if [[ ${#missing[@]} -eq 0 ]]; then
    ok
else
    bad docs/catalog.md "entries missing: ${missing[*]}"
fi
# every key a spec's loaders take is documented in docs/spec.md: the key
# tables of the spec, catalog, collectives, reliability and node readers
undocumented=()
while IFS= read -r key; do
    grep -qF "\`$key\`" docs/spec.md || undocumented+=("$key")
done < <(for f in src/lib/spec/sections.c src/lib/spec/scaleup.c \
        src/lib/spec/scaleout.c src/lib/spec/entries.c \
        src/lib/net/coll-params.c src/lib/workload/goodput.c \
        src/lib/health/node.c; do
    awk '/static const char \*const [a-z_]*(keys|classes)\[\] = \{/,/\};/' "$f"
done | grep -o '"[a-z_0-9]*"' | tr -d '"' | sort -u)
if [[ ${#undocumented[@]} -eq 0 ]]; then
    ok
else
    bad docs/spec.md "keys not documented: ${undocumented[*]}"
fi
# and its hardware tables are the binary's (scripts/catalog-doc.sh)
if out=$(bash scripts/catalog-doc.sh "$bin" --check 2>&1); then
    ok
else
    bad docs/catalog.md "$out"
fi

echo "$pass passed, $fail failed"
