#!/usr/bin/env bash
# suite.sh [BUILD]: the house format. Every C source and header under src/,
# include/, tests/ and bench/ is as the checked-in .clang-format lays it
# out; one case per file, so a failure names the file and the first lines
# that differ. `make format` rewrites them.
set -uo pipefail
cd "$(dirname "$0")/../.."
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "FAIL: $cf not found (scripts/deps.sh installs clang-format)"
    echo "0 passed, 1 failed"
    exit 1
fi
pass=0
fail=0
while IFS= read -r f; do
    if out=$("$cf" --style=file "$f" | diff -u "$f" - 2>&1); then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $f is not in the house format ('make format' fixes it):"
        printf '%s\n' "$out" | sed -n '3,20p' | sed 's/^/  /'
    fi
done < <(find src include tests bench \( -name '*.c' -o -name '*.h' \
            -o -name '*.cu' \) -type f | sort)
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
