#!/usr/bin/env bash
# suite.sh [BUILD]: the house format. Every C source and header under src/,
# include/, tests/ and bench/ is as the checked-in .clang-format lays it
# out; one case per file, so a failure names the file and the first lines
# that differ. `make format` rewrites them. clang-format reads them all in
# one call (--dry-run names each file that differs: 2 s, where a call per
# file took 48 s); only the files it names are formatted again for their
# diff.
# covers: all
set -uo pipefail
cd "$(dirname "$0")/../.."
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "FAIL: $cf not found (scripts/deps.sh installs clang-format)"
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find src include tests bench \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) \
    -type f -print0 | sort -z >"$tmp/files"
total=$(tr -cd '\0' <"$tmp/files" | wc -c)
# xargs may split the list over several calls; any call that fails (a
# file clang-format cannot read, a bad .clang-format) fails the suite
xargs -0 "$cf" --style=file --dry-run <"$tmp/files" >"$tmp/out" 2>&1
rc=$?
sed -n 's/^\(.*\):[0-9][0-9]*:[0-9][0-9]*: warning: code should be clang-formatted.*/\1/p' \
    "$tmp/out" | sort -u >"$tmp/differ"
fail=0
while IFS= read -r f; do
    fail=$((fail + 1))
    echo "FAIL $f is not in the house format ('make format' fixes it):"
    "$cf" --style=file "$f" | diff -u "$f" - 2>&1 | sed -n '3,20p' |
        sed 's/^/  /'
done <"$tmp/differ"
if [[ $rc -ne 0 ]]; then
    fail=$((fail + 1))
    echo "FAIL $cf ended with status $rc:"
    grep -v 'warning: code should be clang-formatted' "$tmp/out" |
        head -n 20 | sed 's/^/  /'
fi
pass=$((total - $(wc -l <"$tmp/differ")))
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
