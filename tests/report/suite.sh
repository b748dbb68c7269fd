#!/usr/bin/env bash
# suite.sh BUILD: the HTML report (`supernode report`) of every example
# spec, with --model for two of them and with --power for one: the
# whole page must be well-formed (it is written as XML-clean HTML), every
# <svg> must pass xmllint on its own, and headless Chromium must render it
# with no
# JavaScript error, no blank page, no text overflowing its box, no
# element outside the page and no SVG text outside its drawing (check.js,
# put first in a copy). Screenshots go to BUILD/report-shots/. Controls
# show each check can fail. Skips the browser part, saying so, where
# chromium is missing or cannot start (Debian package chromium, installed
# by scripts/deps.sh); skips all without xmllint. Prints "N passed, N
# failed" last.
# covers: html render
# runs: slow
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-${SN_BUILD:-build/test}}
bin=$build/supernode
shots=$build/report-shots
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1764892800 # fixed: the same bytes every run

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

if ! command -v xmllint >/dev/null 2>&1; then
    echo "skip: xmllint not on PATH (Debian package libxml2-utils)"
    echo "0 passed, 0 failed"
    exit 0
fi

# the pages: every example, and the model's predictions for two
pages=()
for spec in examples/*.yaml; do
    name=$(basename "$spec" .yaml)
    if "$bin" report "$spec" -o "$tmp/$name.html" 2>"$tmp/$name.err"; then
        ok
        pages+=("$name")
    else
        bad "report $spec: $(head -c 300 "$tmp/$name.err")"
    fi
done
for spec in examples/gb200-nvl72.yaml examples/dgx-h100-superpod-su.yaml; do
    name=$(basename "$spec" .yaml)-model
    if "$bin" report "$spec" --model llama3-70b -o "$tmp/$name.html" \
        2>"$tmp/$name.err" && grep -q 'id="predict-search"' "$tmp/$name.html"
    then
        ok
        pages+=("$name")
    else
        bad "report $spec --model: $(head -c 300 "$tmp/$name.err")"
    fi
done
# bench power's curve with the design (tests/fixtures/power)
if "$bin" report examples/dgx-h100-superpod-su.yaml \
    --power tests/fixtures/power/h100-limits.json -o "$tmp/power.html" \
    2>"$tmp/power.err" && grep -q 'id="power-efficiency"' "$tmp/power.html"
then
    ok
    pages+=("power")
else
    bad "report --power: $(head -c 300 "$tmp/power.err")"
fi

# well-formed: the page (past its doctype line) as XML, each svg alone
svg_split() { # FILE DIR: each <svg>..</svg> of FILE as DIR/N.svg
    python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
for i, m in enumerate(re.finditer(r"<svg\b.*?</svg>", text, re.S)):
    open("%s/%d.svg" % (sys.argv[2], i), "w", encoding="utf-8").write(
        m.group(0))
PY
}
xml_check() { # NAME FILE: the page and its svgs
    local d=$tmp/$1.svgs n
    if ! sed 1d "$2" | xmllint --noout - 2>"$tmp/$1.xml"; then
        bad "$1: not well-formed: $(head -n 3 "$tmp/$1.xml")"
        return
    fi
    mkdir -p "$d"
    svg_split "$2" "$d"
    n=$(find "$d" -name '*.svg' | wc -l)
    if [[ "$1" != empty && $n -eq 0 ]]; then
        bad "$1: no svg"
        return
    fi
    for f in "$d"/*.svg; do
        [[ -f "$f" ]] || continue
        if ! xmllint --noout "$f" 2>"$tmp/$1.svg.err"; then
            bad "$1: $(basename "$f") $(head -n 2 "$tmp/$1.svg.err")"
            return
        fi
    done
    ok
}
for p in "${pages[@]}"; do
    xml_check "$p" "$tmp/$p.html"
done
# control: a broken drawing is refused
printf '<!doctype html>\n<html><body><svg><text>a</svg></body></html>\n' \
    >"$tmp/broken.html"
if sed 1d "$tmp/broken.html" | xmllint --noout - 2>/dev/null; then
    bad "control: xmllint took a broken svg"
else
    ok
fi

# the browser
chromium_run() { # ARGS...: headless chromium, 90 s at most
    timeout 90 chromium --headless --no-sandbox --disable-gpu \
        --hide-scrollbars --mute-audio --no-first-run "$@" 2>/dev/null
}
if ! command -v chromium >/dev/null 2>&1; then
    echo "skip: chromium not on PATH (Debian package chromium); the" \
        "pages were checked by xmllint only"
    echo "$pass passed, $fail failed"
    [[ $fail -eq 0 ]]
    exit
fi
if ! chromium_run --dump-dom "data:text/html,<p>up</p>" | grep -q up; then
    echo "skip: chromium cannot start here; the pages were checked by" \
        "xmllint only"
    echo "$pass passed, $fail failed"
    [[ $fail -eq 0 ]]
    exit
fi
inject() { # FILE JS first|last ID: the text of <pre id=ID> that JS writes
    # into a copy of FILE, put first in it (to see errors of the page's own
    # scripts) or last (to work them)
    python3 - "$1" "$tmp/checked.html" "$2" "$3" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
js = open(sys.argv[3], encoding="utf-8").read()
i = page.rfind("</body>") if sys.argv[4] == "last" else -1
for tag in ("<head>", "<body>") if i < 0 else ():
    i = page.find(tag)
    if i >= 0:
        i += len(tag)
        break
i = max(i, 0)
open(sys.argv[2], "w", encoding="utf-8").write(
    page[:i] + "<script>\n" + js + "</script>\n" + page[i:])
PY
    chromium_run --window-size=1280,1000 --dump-dom "file://$tmp/checked.html" |
        python3 -c '
import html, re, sys
m = re.findall(r"<pre id=\"" + sys.argv[1] + r"\">(.*?)</pre>", sys.stdin.read(), re.S)
print(html.unescape(m[-1]) if m else "no verdict: the checker did not run")' "$4"
}
verdict() { # FILE: the checker's verdict on a copy of FILE
    inject "$1" tests/report/check.js first verdict
}
mkdir -p "$shots"
for p in "${pages[@]}"; do
    v=$(verdict "$tmp/$p.html")
    if [[ "$v" != OK* ]]; then
        bad "$p in chromium:"
        echo "$v" | head -n 12
        continue
    fi
    ok
    h=${v#OK height=}
    ((h > 16000)) && h=16000
    chromium_run --window-size=1280,"$h" --screenshot="$shots/$p.png" \
        "file://$tmp/$p.html" >/dev/null
    [[ -s "$shots/$p.png" ]] || bad "$p: no screenshot"
done
# the page's script as a reader works it (interact.js): a mark's value on
# hover, a double click zooms its drawing, Escape undoes it; the control
# is the same page without its script
for p in dgx-h100-superpod-su-model seed-64; do
    v=$(inject "$tmp/$p.html" tests/report/interact.js last interact)
    if [[ "$v" == OK ]]; then ok; else bad "$p script: $v"; fi
done
sed '/^<script>\/\/<!\[CDATA\[$/,/^\/\/]]><\/script>$/d' "$tmp/seed-64.html" \
    >"$tmp/noscript.html"
v=$(inject "$tmp/noscript.html" tests/report/interact.js last interact)
if [[ "$v" == *"hover: no tip"* ]]; then ok; else bad "control: '$v'"; fi
# controls: the checker sees overflow, a page too wide, a script error
# and a blank page
printf '%s\n' '<!doctype html><html><body><p style="width:40px">' \
    'unbreakablewordthatiswiderthanforty</p><div style="width:3000px">' \
    'wide</div><script>undefined_function()</script></body></html>' \
    >"$tmp/bad.html"
v=$(verdict "$tmp/bad.html")
for want in "text overflows" "outside the page" "javascript error"; do
    if [[ "$v" == *"$want"* ]]; then ok; else bad "control: no '$want'"; fi
done
printf '<!doctype html><html><body></body></html>\n' >"$tmp/blank.html"
v=$(verdict "$tmp/blank.html")
if [[ "$v" == *"blank page"* ]]; then ok; else bad "control: blank page"; fi
echo "screenshots in $shots"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
