#!/usr/bin/env bash
# covers: all
# suite.sh [BUILD]: the layering rules, read from tests/layers/table.
#  - every #include "..." in src/lib, src/cli and include/sn keeps to the
#    floors: a module includes its own headers and the public headers of
#    lower floors; a header inside src/lib/MODULE/ is that module's alone
#    unless the table lends it;
#  - every private header (*-int.h) stops an includer from another module
#    at compile time (#error unless SN_MODULE_<module>, which the Makefile
#    defines, or SN_TESTS), and its guard names exactly the modules the
#    table lets in;
#  - the built library (BUILD/libsupernode.a and build/rel's, by nm)
#    defines only sn_ and sn__ symbols and references nothing that prints,
#    exits or reads the environment outside the table's allow-list;
#  - the table's modules are the folders of src/lib and the rows of
#    docs/internals.md's module map;
#  - every exception in the table is still needed.
# A failure names file:line, or the symbol and its object.
set -uo pipefail
build=${1:-build/test}
cd "$(dirname "$0")/../.." || exit 1
table=tests/layers/table
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() {
    pass=$((pass + 1))
    echo "ok $*"
}
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}

# --- the table -------------------------------------------------------------
declare -A floor_of=() owner=() lent=()
modules=()
exc=()  # "lineno kind file-or-module pattern"
declare -A exc_used=()
lineno=0
while IFS= read -r line || [[ -n "$line" ]]; do
    lineno=$((lineno + 1))
    line=${line%%#*}
    read -r -a w <<<"$line"
    [[ ${#w[@]} -eq 0 ]] && continue
    where="$table:$lineno"
    case ${w[0]} in
    floor)
        if [[ ${#w[@]} -lt 3 || ! ${w[1]} =~ ^[0-9]+$ ]]; then
            bad "$where: want 'floor N MODULE [HEADER...]'"
            continue
        fi
        m=${w[2]}
        if [[ -n ${floor_of[$m]:-} ]]; then
            bad "$where: module $m is in the table twice"
            continue
        fi
        floor_of[$m]=${w[1]}
        modules+=("$m")
        for h in "${w[@]:3}"; do
            if [[ -n ${owner[sn/$h]:-} ]]; then
                bad "$where: sn/$h already belongs to ${owner[sn/$h]}"
            fi
            owner[sn/$h]=$m
        done
        ;;
    lend | allow-call | except-include | except-export | except-call)
        if [[ ${#w[@]} -lt 4 ]]; then
            bad "$where: want '${w[0]} FILE-OR-HEADER WHAT REASON'"
            continue
        fi
        exc+=("$lineno ${w[0]} ${w[1]} ${w[2]}")
        [[ ${w[0]} == lend ]] && lent[${w[1]} ${w[2]}]=$lineno
        ;;
    except-map)
        if [[ ${#w[@]} -lt 3 ]]; then
            bad "$where: want 'except-map MODULE REASON'"
            continue
        fi
        exc+=("$lineno ${w[0]} ${w[1]} -")
        ;;
    *)
        bad "$where: unknown line '${w[0]}'"
        ;;
    esac
done <"$table"

# the module a path belongs to: src/lib/M/... is M, src/cli/... is cli,
# include/sn/H is H's owner; empty when none
module_of() {
    case $1 in
    src/lib/*/*)
        local r=${1#src/lib/}
        echo "${r%%/*}"
        ;;
    src/cli/*) echo cli ;;
    include/sn/*) echo "${owner[${1#include/}]:-}" ;;
    esac
}

# an exception of KIND matching FILE and WHAT: marks it used, returns 0
excepted() { # kind file what
    local e n k f p
    for e in "${exc[@]}"; do
        read -r n k f p <<<"$e"
        # shellcheck disable=SC2053 # globs on purpose
        if [[ $k == "$1" && $2 == $f && $3 == $p ]]; then
            exc_used[$n]=1
            return 0
        fi
    done
    return 1
}

# --- modules against folders, headers against include/sn ------------------
for d in src/lib/*/; do
    m=${d#src/lib/}
    m=${m%/}
    if [[ -n ${floor_of[$m]:-} ]]; then
        ok "src/lib/$m has a floor"
    else
        bad "src/lib/$m: no floor in $table (one line: floor N $m HEADERS)"
    fi
done
for m in "${modules[@]}"; do
    [[ $m == cli ]] && continue
    [[ -d src/lib/$m ]] || bad "$table: module $m has no folder src/lib/$m"
done
for h in include/sn/*.h; do
    if [[ -n ${owner[${h#include/}]:-} ]]; then
        ok "$h belongs to ${owner[${h#include/}]}"
    else
        bad "$h: no module owns it in $table"
    fi
done
for h in "${!owner[@]}"; do
    [[ -f include/$h ]] || bad "$table: include/$h does not exist"
done

# --- includes against the floors -------------------------------------------
# a path with ./ and ../ taken out
normal() {
    local -a out=()
    local part IFS=/
    for part in $1; do
        case $part in
        . | '') ;;
        ..) [[ ${#out[@]} -gt 0 ]] && unset 'out[${#out[@]}-1]' ;;
        *) out+=("$part") ;;
        esac
    done
    echo "${out[*]}"
}

declare -A bad_in=()
grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("|<sn/)' \
    -r src/lib src/cli include/sn --include='*.c' --include='*.h' \
    --include='*.cu' | LC_ALL=C sort -t: -k1,1 -k2,2n >"$tmp/includes"
while IFS=: read -r file ln text; do
    inc=${text#*include}
    inc=${inc#*[\"<]}
    inc=${inc%%[\">]*}
    from=$(module_of "$file")
    if [[ -z $from ]]; then
        bad "$file:$ln: the file's module is not in $table"
        continue
    fi
    # what the compiler finds: beside the file, then include/
    if [[ -f $(dirname "$file")/$inc ]]; then
        hdr=$(normal "$(dirname "$file")/$inc")
    elif [[ -f include/$inc ]]; then
        hdr=$inc
    else
        bad "$file:$ln: \"$inc\" is neither beside the file nor in include/"
        continue
    fi
    case $hdr in
    sn/*)
        to=${owner[$hdr]:-}
        if [[ -z $to ]]; then
            bad "$file:$ln: $hdr has no owner in $table"
            continue
        fi
        [[ $to == "$from" || ${floor_of[$to]} -lt ${floor_of[$from]} ]] &&
            continue
        why="$hdr is $to's (floor ${floor_of[$to]}), $file is $from's (floor ${floor_of[$from]})"
        ;;
    include/sn/*)
        hdr=${hdr#include/}
        to=${owner[$hdr]:-}
        [[ -n $to ]] && [[ $to == "$from" ||
            ${floor_of[$to]} -lt ${floor_of[$from]} ]] && continue
        why="$hdr is ${to:-nobody}'s"
        ;;
    *)
        to=$(module_of "$hdr")
        [[ $to == "$from" ]] && continue
        [[ -n ${lent[$hdr $from]:-} ]] && {
            excepted lend "$hdr" "$from"
            continue
        }
        why="$hdr is private to $to, $file is $from's"
        ;;
    esac
    excepted except-include "$file" "$hdr" && continue
    bad "$file:$ln: #include \"$inc\": $why"
    bad_in[$from]=1
done <"$tmp/includes"
for m in "${modules[@]}"; do
    [[ -n ${bad_in[$m]:-} ]] || ok "$m includes keep to the floors"
done

# --- the private headers' guards -------------------------------------------
while IFS= read -r h; do
    m=$(module_of "$h")
    # the modules the table lets in: the owner, lends, excepted includers
    want=" $m "
    for e in "${exc[@]}"; do
        read -r n k f p <<<"$e"
        if [[ $k == lend && $f == "$h" ]]; then
            want+="$p "
        elif [[ $k == except-include && $p == "$h" ]]; then
            fm=$(module_of "$f")
            [[ $want == *" $fm "* ]] || want+="$fm "
        fi
    done
    # the guard: the #if before the first #include, up to its #error
    awk '/^#[[:space:]]*include/ { exit } { print } /^#[[:space:]]*error/ { exit }' \
        "$h" >"$tmp/head"
    have=" $(grep -o 'defined(SN_MODULE_[A-Za-z0-9_]*)' "$tmp/head" |
        sed 's/defined(SN_MODULE_\(.*\))/\1/' | tr '\n' ' ')"
    if ! grep -q '^#[[:space:]]*error' "$tmp/head" ||
        ! grep -q '!defined(SN_TESTS)' "$tmp/head"; then
        bad "$h: no guard before its first #include (#if !defined(SN_MODULE_$m) && !defined(SN_TESTS) / #error / #endif)"
        continue
    fi
    missing="" extra=""
    for x in $want; do [[ $have == *" $x "* ]] || missing+=" $x"; done
    for x in $have; do [[ $want == *" $x "* ]] || extra+=" $x"; done
    if [[ -n $missing$extra ]]; then
        bad "$h: the guard lets in {$have} but the table says {$want}${missing:+ (missing:$missing)}${extra:+ (not allowed:$extra)}"
        continue
    fi
    ok "$h guards itself (lets in:${have% })"
    # and the guard works: an includer from outside (a CLI file) stops
    # with the #error, the owner passes it
    msg=$(sed -n 's/^#[[:space:]]*error[[:space:]]*"\{0,1\}\([^"]*\).*/\1/p' \
        "$tmp/head")
    # shellcheck disable=SC2086 # CC may be "ccache cc"
    $cc -E -Iinclude "$h" >/dev/null 2>"$tmp/err"
    if grep -qF "$msg" "$tmp/err"; then
        ok "$h stops an includer outside${have% }"
    else
        bad "$h: an includer outside${have% } was not stopped"
    fi
    # shellcheck disable=SC2086
    $cc -E -Iinclude -DSN_MODULE_"$m" "$h" >/dev/null 2>"$tmp/err"
    if grep -qF "$msg" "$tmp/err"; then
        bad "$h: the module's own file was stopped: $(grep -F "$msg" "$tmp/err" | head -n 1)"
    else
        ok "$h lets $m in"
    fi
done < <(find src/lib -name '*-int.h' | LC_ALL=C sort)

# --- the built library's symbols -------------------------------------------
# what the library never references (printing to the standard streams,
# exiting, the environment); the _chk forms are what _FORTIFY_SOURCE
# turns the printf family into
never=" printf vprintf fprintf vfprintf dprintf vdprintf puts putchar fputs
fputc putc perror stdout stderr stdin exit _exit _Exit quick_exit abort
MPI_Abort getenv secure_getenv environ __environ __printf_chk __fprintf_chk
__vprintf_chk __vfprintf_chk __dprintf_chk "
never=" $(tr '\n' ' ' <<<"$never")"

archives=()
for a in "$build/libsupernode.a" build/rel/libsupernode.a; do
    [[ -f $a ]] || continue
    [[ " ${archives[*]} " == *" $a "* ]] && continue
    archives+=("$a")
done
if [[ ${#archives[@]} -eq 0 ]]; then
    bad "no $build/libsupernode.a: build it first (make test-build)"
fi
for a in "${archives[@]}"; do
    # name each member by its source: the archive holds src/lib/*/*.c's
    # objects in the Makefile's sorted order, so the k-th member called
    # x.o is the k-th src/lib/*/x.c (x.o itself when there is none)
    ar t "$a" >"$tmp/members"
    printf '%s\n' src/lib/*/*.c | LC_ALL=C sort >"$tmp/sources"
    awk 'NR == FNR { n = split($0, p, "/"); b = p[n]; sub(/\.c$/, ".o", b);
                     src[b, ++have[b]] = $0; next }
         { k = ++seen[$1]; c = $1; sub(/\.o$/, ".c", c);
           print $1, (($1, k) in src ? src[$1, k] : c) }' \
        "$tmp/sources" "$tmp/members" >"$tmp/map"
    if ! nm "$a" >"$tmp/nm" 2>"$tmp/err"; then
        bad "nm $a: $(head -n 1 "$tmp/err")"
        continue
    fi
    if [[ $(grep -c '^[^ ]*\.o:$' "$tmp/nm") -ne $(wc -l <"$tmp/members") ]]; then
        bad "$a: nm's objects do not pair with ar's members"
        continue
    fi
    # "source type symbol" for every symbol, members counted in order
    awk 'NR == FNR { src[NR] = $2; n = NR; next }
         /^[^ ]+\.o:$/ { i++; obj = (i <= n ? src[i] : $0); next }
         NF >= 2 { print obj, $(NF - 1), $NF }' "$tmp/map" "$tmp/nm" \
        >"$tmp/syms"
    nbad=0
    while read -r src type sym; do
        case $type in
        U)
            [[ $never == *" $sym "* ]] || continue
            obj=${src%.c}.o
            excepted allow-call "$src" "$sym" && continue
            excepted except-call "$src" "$sym" && continue
            bad "$a: $obj references $sym (the library never prints, exits or reads the environment)"
            nbad=$((nbad + 1))
            ;;
        [A-TV-Z])
            [[ $sym == sn_* ]] && continue
            # what the sanitizers add to an instrumented object
            [[ $sym == __odr_asan[._]* || $sym == __asan_* ||
                $sym == __ubsan_* ]] && continue
            obj=${src%.c}.o
            excepted except-export "$src" "$sym" && continue
            bad "$a: $obj exports $sym (the library exports sn_ and sn__ names only)"
            nbad=$((nbad + 1))
            ;;
        esac
    done <"$tmp/syms"
    n=$(wc -l <"$tmp/syms")
    if [[ $n -lt 1000 ]]; then
        bad "$a: only $n symbols read: not the library?"
    elif [[ $nbad -eq 0 ]]; then
        ok "$a: $n symbols, exports and references keep to the table"
    fi
done

# --- the module map --------------------------------------------------------
doc=docs/internals.md
awk '/^## / { on = ($0 == "## Module map") ; next }
     on && /^\| / { sub(/^\| */, ""); sub(/ *\|.*/, ""); print }' "$doc" |
    grep -v -e '^module$' -e '^-*$' | LC_ALL=C sort -u >"$tmp/map-rows"
if [[ ! -s $tmp/map-rows ]]; then
    bad "$doc: no '## Module map' table"
fi
printf '%s\n' "${modules[@]}" | grep -vx cli | LC_ALL=C sort -u \
    >"$tmp/table-mods"
while read -r m; do
    excepted except-map "$m" - && continue
    bad "$doc: the module map has $m, $table has no such module"
done < <(comm -23 "$tmp/map-rows" "$tmp/table-mods")
while read -r m; do
    excepted except-map "$m" - && continue
    bad "$doc: the module map has no row for $m (a module in $table)"
done < <(comm -13 "$tmp/map-rows" "$tmp/table-mods")
if cmp -s <(comm -3 "$tmp/map-rows" "$tmp/table-mods" | tr -d '\t') \
    <(for e in "${exc[@]}"; do
        read -r n k f p <<<"$e"
        [[ $k == except-map ]] && echo "$f"
    done | LC_ALL=C sort -u); then
    ok "$doc's module map has the table's $(wc -l <"$tmp/table-mods") modules"
fi

# --- every exception still needed ------------------------------------------
for e in "${exc[@]}"; do
    read -r n k f p <<<"$e"
    # a symbol exception only means something when an archive was read
    [[ ($k == *-call || $k == except-export) && ${#archives[@]} -eq 0 ]] &&
        continue
    [[ $p == - ]] && p=""
    if [[ -n ${exc_used[$n]:-} ]]; then
        ok "$table:$n $k $f${p:+ $p} is still needed"
    else
        bad "$table:$n: $k $f${p:+ $p} matches nothing any more: remove the line"
    fi
done

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
