#!/usr/bin/env bash
# suite.sh [BUILD]: include/sn/banned.h bans what it lists. For each call
# it bans, a file that includes "sn/util.h" and makes the call must fail to
# compile, naming the ban (sorry_NAME_is_banned...); the same calls compile
# without the project's headers (so the failure is the ban, not a typo
# here), and the file without them compiles with util.h. Every name
# banned.h defines must have a call below, so a new ban needs a case here.
# Also banned: a schema id written anywhere but include/sn/schema.h.
# One compiler call per name plus two, -fsyntax-only: no build, no network.
set -uo pipefail
cd "$(dirname "$0")/../.."
cc=${CC:-cc}
flags=(-std=c11 -D_GNU_SOURCE -Iinclude -Wall -Werror -fsyntax-only)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# name, then a call using the locals of the template below
calls=(
    "strcpy|strcpy(buf, \"x\")"
    "strcat|strcat(buf, \"x\")"
    "strncpy|strncpy(buf, \"x\", 1)"
    "strncat|strncat(buf, \"x\", 1)"
    "sprintf|sprintf(buf, \"%d\", 1)"
    "vsprintf|vsprintf(buf, \"%d\", ap)"
    "strtok|strtok(buf, \" \")"
    "strtok_r|strtok_r(buf, \" \", &save)"
    "gmtime|gmtime(&t)"
    "localtime|localtime(&t)"
    "ctime|ctime(&t)"
    "asctime|asctime(&tm)"
)

# source BODY [PROJECT]: a translation unit making the calls in BODY, with
# the house include order (system headers, then sn/util.h) when PROJECT
source() {
    printf '%s\n' '#include <stdarg.h>' '#include <stdio.h>' \
        '#include <string.h>' '#include <time.h>'
    [[ -n "${2:-}" ]] && printf '#include "sn/util.h"\n'
    cat <<SRC
void f(va_list ap);
void f(va_list ap)
{
    char buf[64] = "a b";
    char *save = NULL;
    time_t t = 0;
    struct tm tm = {0};

    (void)ap; (void)save; (void)t; (void)tm; (void)buf;
$1
}
SRC
}

result() { # ok, what
    if [[ $1 == 1 ]]; then
        pass=$((pass + 1))
        echo "ok $2"
    else
        fail=$((fail + 1))
        echo "FAIL $2"
        sed 's/^/  /' "$tmp/err" | head -n 10
    fi
}

compiles() { # file: 1 when it compiles cleanly
    # shellcheck disable=SC2086 # CC may be "ccache cc"
    $cc "${flags[@]}" "$1" 2>"$tmp/err" && echo 1 || echo 0
}

all=""
for c in "${calls[@]}"; do
    all+="    (void)${c#*|};"$'\n'
done
source "$all" >"$tmp/plain.c"
result "$(compiles "$tmp/plain.c")" "the calls compile without banned.h"
source "" project >"$tmp/clean.c"
result "$(compiles "$tmp/clean.c")" "a file calling none of them compiles"

for c in "${calls[@]}"; do
    name=${c%%|*}
    source "    (void)${c#*|};" project >"$tmp/$name.c"
    ok=0
    if [[ $(compiles "$tmp/$name.c") == 0 ]] &&
        grep -q "sorry_${name}_is_banned" "$tmp/err"; then
        ok=1
    fi
    result "$ok" "$name is a compile error naming the ban"
done

# every ban in the header has a case above
tested=$(printf ' %s ' "${calls[@]%%|*}")
while read -r name; do
    ok=0
    [[ "$tested" == *" $name "* ]] && ok=1
    : >"$tmp/err"
    result "$ok" "banned.h's $name has a case here"
done < <(sed -n 's/^#define \([a-z_]*\)(.*SN_BANNED.*/\1/p' \
    include/sn/banned.h)

# Schema ids: include/sn/schema.h defines each as SN_SCHEMA_<KIND>, of the
# form supernode.<kind>/<version>, one constant per id; no other file
# under src/ or include/ writes an id (in code, help text or comments:
# they name the constant).
id_re='supernode\.[a-z][a-z-]*/[0-9]+'
sed -n 's/^#define \(SN_SCHEMA_[A-Z_]*\) \(.*\)/\1 \2/p' \
    include/sn/schema.h >"$tmp/schemas"
ok=0
[[ $(wc -l <"$tmp/schemas") -ge 20 ]] && ok=1
: >"$tmp/err"
result "$ok" "schema.h defines the schema ids ($(wc -l <"$tmp/schemas"))"
while read -r name value rest; do
    kind=${value#\"supernode.}
    kind=${kind%%/*}
    want="SN_SCHEMA_$(tr 'a-z-' 'A-Z_' <<<"$kind")"
    ok=0
    echo "$name is $value, want $want \"supernode.$kind/N\"" >"$tmp/err"
    [[ $value =~ ^\"supernode\.[a-z][a-z-]*/[1-9][0-9]*\"$ &&
        $name == "$want" ]] && ok=1
    result "$ok" "$name has the form supernode.<kind>/<n>"
done <"$tmp/schemas"
ok=0
cut -d' ' -f2 "$tmp/schemas" | sort | uniq -d >"$tmp/err"
[[ -s "$tmp/err" ]] || ok=1
result "$ok" "no schema id has two constants"
grep -rnE --include='*.[ch]' "$id_re" src include |
    grep -v '^include/sn/schema.h:' >"$tmp/err"
ok=0
[[ -s "$tmp/err" ]] || ok=1
result "$ok" "no file but schema.h writes a schema id"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
