#!/usr/bin/env bash
# suite.sh BUILD: CLI golden cases. Each tests/cli/cases/*.t is a small
# declarative file (curl's tests/data style):
#
#   # what the case checks
#   setup: $SUPERNODE runs import F --db $TMP/r.db   run first (any number)
#   args: plan examples/seed-64.yaml --format json
#   exit: 0
#   stdout: tests/cli/expected/NAME.out     the whole of stdout, exactly
#   stdout-has: "accelerators": 256        a line of stdout contains this
#   stdout-lacks: WARN                     no line of stdout contains this
#   stderr-has: unknown key                a line of stderr contains this
#   stderr-empty:
#   file: FILE                              after the run, FILE exists...
#   file-has: TEXT                          ...and contains TEXT
#   no-file: FILE                           FILE was not created
#
# args are split by the shell; $TMP names a fresh directory per case.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${SUPERNODE:?}
pass=0
fail=0
for t in tests/cli/cases/*.t; do
    [[ -f "$t" ]] || continue
    name=$(basename "$t" .t)
    TMP=$(mktemp -d)
    export TMP
    args=$(sed -n 's/^args: //p' "$t" | head -n 1)
    want_exit=$(sed -n 's/^exit: //p' "$t" | head -n 1)
    while IFS= read -r setup; do
        (eval "$setup") >/dev/null 2>&1 </dev/null
    done < <(sed -n 's/^setup: //p' "$t")
    eval "set -- $args"
    "$bin" "$@" >"$TMP/.out" 2>"$TMP/.err" </dev/null
    rc=$?
    why=()
    [[ "$rc" == "${want_exit:-0}" ]] || why+=("exit $rc, expected ${want_exit:-0}")
    while IFS= read -r line; do
        key=${line%%:*}
        val=${line#*: }
        [[ "$line" == *:* ]] || continue
        case "$key" in
        stdout)
            exp=$(eval echo "$val")
            if ! cmp -s "$exp" "$TMP/.out"; then
                why+=("stdout differs from $exp:")
                why+=("$(diff "$exp" "$TMP/.out" | head -n 10)")
            fi ;;
        stdout-has)
            grep -qF -- "$val" "$TMP/.out" || why+=("stdout lacks: $val") ;;
        stdout-lacks)
            ! grep -qF -- "$val" "$TMP/.out" || why+=("stdout has: $val") ;;
        stderr-has)
            grep -qF -- "$val" "$TMP/.err" || why+=("stderr lacks: $val") ;;
        stderr-empty)
            [[ ! -s "$TMP/.err" ]] || why+=("stderr not empty: $(head -c 300 "$TMP/.err")") ;;
        file)
            f=$(eval echo "$val")
            [[ -f "$f" ]] || why+=("file missing: $f") ;;
        file-has)
            grep -qF -- "$val" "$f" 2>/dev/null || why+=("$f lacks: $val") ;;
        no-file)
            f=$(eval echo "$val")
            [[ ! -e "$f" ]] || why+=("file should not exist: $f") ;;
        esac
    done <"$t"
    if [[ ${#why[@]} -eq 0 ]]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name ($t)"
        printf '  %s\n' "${why[@]}"
        sed 's/^/  stderr: /' "$TMP/.err" | head -n 5
    fi
    rm -rf "$TMP"
done
echo "$pass passed, $fail failed"
