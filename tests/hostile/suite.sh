#!/usr/bin/env bash
# suite.sh BUILD: the bad-input suite. Probes of every command with bad
# options, malformed data files, damaged databases, special output targets
# (device nodes, FIFOs, sockets, symlinks, '-', long paths), strings from
# the machine that are not text, and faults; each must end as the table
# says: its exit status, its message, no crash, no sanitizer report, no
# hang, and what it leaves behind. Prints "N passed, N failed" last.
#
# One probe a line:
#   p NAME EXIT 'STDERR' 'SETUP' 'COMMAND' 'THEN'
# run with a fresh directory $T, the binary $SN and the repository as the
# working directory: SETUP first (it must succeed), then COMMAND under a
# time limit (its exit status must be EXIT; a hang is a failure), whose
# stderr must contain STDERR (when not empty), then THEN (a shell
# condition, when not empty; $T/out and $T/err hold what COMMAND wrote).
# Probes that need root (mknod, namespaces) are skipped, and say so,
# without it. HOSTILE_ONLY=REGEX runs only the probes it matches. Device nodes are made in $T: the host's /dev is never
# written.
# covers: all
# runs: slow shards
set -uo pipefail
cd "$(dirname "$0")/../.."
SN=${SUPERNODE:?}
export SN
pass=0
fail=0
skipped=0
probe_k=0
shard=${SN_SHARD:-0/1}
shard_i=${shard%/*}
shard_n=${shard#*/}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work" # the probes that read as another user reach their files

# no leak reports from Open MPI's own allocations; every access and
# operation is still checked
export ASAN_OPTIONS=${HOSTILE_ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader
limit=${HOSTILE_TIMEOUT:-60}
root=false
[[ $(id -u) -eq 0 ]] && root=true

# the release build beside the test build, for what a sanitizer build
# cannot run under (ulimit -v)
SN_REL=${SN_REL:-$(dirname "$SN")/../supernode}
export SN_REL
spec=examples/cpu-cluster.yaml
run1=tests/fixtures/check/run-healthy-1.json
node=tests/fixtures/sysfs/node-good

# ---- helpers the table uses ---------------------------------------------------

# a good results database at $1 (one run imported)
mkdb() { "$SN" runs import "$run1" --db "$1" >/dev/null; }
sql() { sqlite3 "$1" "$2" >/dev/null; }
chr() { [[ -c "$1" && ! -L "$1" ]]; }
fifo() { [[ -p "$1" ]]; }
islink() { [[ -L "$1" ]]; }
# valid UTF-8 (iconv refuses anything else)
utf8() { iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; }
json() { utf8 "$1" && jq -e . "$1" >/dev/null 2>&1; }
# XML 1.0 allows no control character but tab, newline and return
xml() {
    utf8 "$1" || return 1
    if LC_ALL=C grep -qP '[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xef\xbf[\xbe\xbf]' "$1"; then
        return 1
    fi
    if command -v xmllint >/dev/null; then
        xmllint --noout "$1" 2>/dev/null
    fi
}
# no terminal escape in a file
noesc() { ! LC_ALL=C grep -q $'\x1b' "$1"; }
# nothing in $1 matching our temporaries or SQLite's side files
notmp() { ! ls -A "$1" | grep -qE '^\.sn-.*\.tmp$|\.tmp[0-9]'; }
nowal() { [[ ! -e "$1-wal" && ! -e "$1-shm" ]]; }
long() { printf "%${1}s" "" | tr ' ' "${2:-a}"; }
# a doctor fixture tree to damage
tree() { cp -r "$node" "$1"; }
# a unix socket at $1 whose listener copies what it is sent to $2
listen() {
    perl -MIO::Socket::UNIX -e '
        my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0],
                                      Listen => 1) or die "listen: $!";
        open(my $o, ">", $ARGV[1]) or die;
        print STDOUT "up\n"; STDOUT->flush;
        my $c = $s->accept(); while (<$c>) { print $o $_ } close $o;' \
        "$1" "$2" &
    for _ in $(seq 50); do [[ -S "$1" ]] && return 0; sleep 0.1; done
    return 1
}
# the design examples/cpu-cluster.yaml under a hostile name: quotes, a
# newline, <, &, %, a backslash, control bytes (SOH, ESC), U+2028 (a
# line break to YAML); each output it enters must stay one value there
evil_spec() {
    sed 's/^name: cpu-cluster/name: "evil\\" -- n99 [label=\\"pwn\\"]; x=\\"<plaintext>\&amp;%s%n\\\\ \\n- alert: Injected\\x01\\e[31m\\u2028end'"'"' ]]>"/' \
        examples/cpu-cluster.yaml >"$1"
    grep -q '^name: "evil' "$1"
}
# YAML as libyaml reads it (PyYAML, python3-yaml)
yaml() { python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$1"; }
# the nodes graphviz reads in a DOT file, one a line
dotnodes() { dot -Tplain "$1" | awk '$1 == "node" { print $2 }' | sort; }
export -f mkdb sql chr fifo islink utf8 json xml noesc notmp nowal long \
    tree listen evil_spec yaml dotnodes
export spec run1 node

# ---- the probe --------------------------------------------------------------

needs_root() { # probe names that mknod, mount or change users
    case "$1" in
    out-chardev* | out-dev-* | store-ro-* | text-hostname-* | \
        out-set-kill*)
        return 0 ;;
    esac
    return 1
}

p() {
    local name=$1 want=$2 text=$3 setup=$4 cmd=$5 then=${6:-}
    local T rc why=()
    # HOSTILE_ONLY=REGEX runs the probes whose names match
    [[ -z ${HOSTILE_ONLY:-} || $name =~ $HOSTILE_ONLY ]] || return 0
    # SN_SHARD=I/N (tests/run.sh): the I-th of N interleaved parts (from 0)
    probe_k=$((probe_k + 1))
    (((probe_k - 1) % shard_n == shard_i)) || return 0
    if needs_root "$name" && ! $root; then
        echo "skip $name: needs root"
        skipped=$((skipped + 1))
        return
    fi
    if [[ $name == rel-* && ! -x $SN_REL ]]; then
        echo "skip $name: no release build at $SN_REL"
        skipped=$((skipped + 1))
        return
    fi
    T=$(mktemp -d "$work/p.XXXXXX")
    export T
    if [[ -n "$setup" ]] && ! (eval "$setup") >"$T/setup.log" 2>&1 </dev/null; then
        fail=$((fail + 1))
        echo "FAIL $name: setup failed: $setup"
        sed 's/^/  /' "$T/setup.log" | head -n 5
        return
    fi
    timeout -k 5 "$limit" bash -c "$cmd" >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then
        why+=("hung: no end within $limit s")
    elif [[ $rc -ne $want ]]; then
        why+=("exit $rc, expected $want")
    fi
    if [[ $rc -gt 128 && $rc -ne 137 ]]; then
        why+=("killed by signal $((rc - 128))")
    fi
    if LC_ALL=C grep -qE 'ERROR: [A-Za-z]*Sanitizer|runtime error:' "$T/err"; then
        why+=("sanitizer report")
    fi
    if [[ -n "$text" ]] && ! LC_ALL=C grep -qF -- "$text" "$T/err"; then
        why+=("stderr lacks: $text")
    fi
    if [[ -n "$then" ]] && ! (eval "$then") >/dev/null 2>&1 </dev/null; then
        why+=("after: $then")
    fi
    if [[ ${#why[@]} -eq 0 ]]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name"
        printf '  %s\n' "${why[@]}"
        LC_ALL=C sed 's/^/  stderr: /' "$T/err" | head -c 600 | head -n 4
    fi
}

# ---- 1. the results database -------------------------------------------------
# a version or application id that is not ours runs no SQL; readers never
# create or dirty a database

for v in -1 -2 -3 -120 -1000000 -2147483648; do
p "store-version$v" 2 'not a supernode results database' \
  "mkdb \$T/r.db && sql \$T/r.db 'PRAGMA user_version=$v'" \
  '$SN runs list --db $T/r.db'
done
p store-version-neg-write 2 'not a supernode results database' \
  'mkdb $T/r.db && sql $T/r.db "PRAGMA user_version=-7"' \
  '$SN runs import $run1 --db $T/r.db' \
  '[[ $(sqlite3 $T/r.db "select count(*) from runs") == 1 ]]'
p store-version-newer 2 'is newer than this supernode knows' \
  'mkdb $T/r.db && sql $T/r.db "PRAGMA user_version=99"' \
  '$SN runs list --db $T/r.db'
p store-foreign-app 2 'application id 0x7' \
  'mkdb $T/r.db && sql $T/r.db "PRAGMA application_id=7; PRAGMA user_version=-1"' \
  '$SN runs list --db $T/r.db'
p store-foreign-tables 2 'not a supernode results database' \
  'sql $T/r.db "CREATE TABLE t (x)"' \
  '$SN runs import $run1 --db $T/r.db' \
  '[[ $(sqlite3 $T/r.db "select count(*) from sqlite_schema") == 1 ]]'
p store-half-applied 2 'does not match its version 1' \
  'mkdb $T/r.db && sql $T/r.db "PRAGMA user_version=1"' \
  '$SN runs list --db $T/r.db'
p store-half-applied-v0 2 'does not match its version 0' \
  'mkdb $T/r.db && sql $T/r.db "PRAGMA user_version=0"' \
  '$SN baseline list --db $T/r.db'
p store-text-file 2 'not a supernode results database' \
  'for i in $(seq 200); do echo "not a database at all $i"; done >$T/r.db' \
  '$SN runs list --db $T/r.db'
p store-truncated 2 'not a supernode results database' \
  'mkdb $T/x.db && head -c 3000 $T/x.db >$T/r.db' \
  '$SN runs show 1 --db $T/r.db'
p store-random-bytes 2 'not a supernode results database' \
  'head -c 65536 /dev/urandom >$T/r.db' \
  '$SN runs list --db $T/r.db'
p store-empty-file 0 '' 'touch $T/r.db' '$SN runs list --db $T/r.db' \
  'grep -q "no runs yet" $T/out'
p store-fifo 2 'not a regular file' 'mkfifo $T/r.db' \
  '$SN runs import $run1 --db $T/r.db'
p store-directory 2 'not a regular file' 'mkdir $T/r.db' \
  '$SN runs list --db $T/r.db'
p store-typo-read 2 'no results database there' '' \
  '$SN runs list --db $T/typo.db' '[[ ! -e $T/typo.db ]]'
p store-typo-show 2 'no results database there' '' \
  '$SN runs show 1 --db $T/typo.db' '[[ ! -e $T/typo.db ]]'
p store-typo-baseline 2 'no results database there' '' \
  '$SN baseline diff accept --db $T/typo.db' '[[ ! -e $T/typo.db ]]'
p store-typo-check-run 2 'no results database there' '' \
  '$SN check --spec $spec --run 1 --db $T/typo.db' '[[ ! -e $T/typo.db ]]'
p store-default-empty 0 '' '' \
  'XDG_DATA_HOME=$T $SN runs list' \
  'grep -q "no runs yet" $T/out && [[ ! -e $T/supernode ]]'
p store-default-show 2 'no results database yet' '' \
  'XDG_DATA_HOME=$T $SN runs show 1' '[[ ! -e $T/supernode ]]'
p store-read-leaves-no-side-files 0 '' 'mkdb $T/r.db' \
  '$SN runs show 1 --db $T/r.db' 'nowal $T/r.db'
p store-ro-dir 0 '' 'mkdir $T/d && mkdb $T/d/r.db' \
  'unshare -m sh -c "mount --bind -o ro $T/d $T/d && $SN runs list --db $T/d/r.db"' \
  'grep -q complete $T/out && nowal $T/d/r.db'
p store-ro-dir-show 0 '' 'mkdir $T/d && mkdb $T/d/r.db' \
  'unshare -m sh -c "mount --bind -o ro $T/d $T/d && $SN runs show 1 --db $T/d/r.db --format json"' \
  'json $T/out'
p store-ro-dir-write 3 'r.db' 'mkdir $T/d && mkdb $T/d/r.db' \
  'unshare -m sh -c "mount --bind -o ro $T/d $T/d && $SN runs import $run1 --db $T/d/r.db"'
p store-ro-file 0 '' \
  'mkdb $T/r.db && chmod 444 $T/r.db && chmod 777 $T' \
  'setpriv --reuid=65534 --regid=65534 --clear-groups $SN runs list --db $T/r.db' \
  'grep -q complete $T/out && nowal $T/r.db'
p store-ro-file-baseline 0 '' \
  'mkdb $T/r.db && $SN baseline save a --force --db $T/r.db && chmod 444 $T/r.db && chmod 777 $T' \
  'setpriv --reuid=65534 --regid=65534 --clear-groups $SN baseline list --db $T/r.db' \
  'nowal $T/r.db'
p store-empty-db-path 2 "'--db' has an empty value" '' \
  '$SN runs import $run1 --db ""'

# ---- 2. outputs -------------------------------------------------------------
# device nodes, FIFOs and sockets are written in place, symlinks followed,
# files replaced as a set

p out-chardev-plan 0 '' 'mknod $T/mynull c 1 3' '$SN plan -o $T/mynull' \
  'chr $T/mynull && notmp $T'
p out-chardev-json 0 '' 'mknod $T/mynull c 1 3' \
  '$SN check --spec $spec --results $run1 --no-store --json $T/mynull --junit $T/j.xml' \
  'chr $T/mynull && xml $T/j.xml'
p out-chardev-ledger 0 '' 'mknod $T/n1 c 1 3 && mknod $T/n2 c 1 3' \
  '$SN plan --ledger $T/n1 --dot $T/n2 -o $T/plan.txt' \
  'chr $T/n1 && chr $T/n2 && grep -q accelerators $T/plan.txt'
p out-dev-full 3 'cannot write' 'mknod $T/full c 1 7' \
  '$SN plan -o $T/full' 'chr $T/full'
p out-fifo 0 '' 'mkfifo $T/f' \
  '(cat $T/f >$T/got &) ; $SN plan -o $T/f; sleep 0.5' \
  'fifo $T/f && grep -q accelerators $T/got'
p out-socket 0 '' '' \
  'listen $T/s $T/got && $SN validate tests/fixtures/validation/mixed.csv -o $T/s; sleep 0.5' \
  '[[ -S $T/s ]] && grep -q predicted $T/got'
p out-symlink 0 '' 'ln -s real.txt $T/link' '$SN plan -o $T/link' \
  'islink $T/link && grep -q accelerators $T/real.txt'
p out-symlink-chain 0 '' 'ln -s l2 $T/l1 && ln -s sub/real $T/l2 && mkdir $T/sub' \
  '$SN plan -o $T/l1' 'islink $T/l1 && islink $T/l2 && [[ -f $T/sub/real ]]'
p out-symlink-to-dev 0 '' 'mknod $T/mynull c 1 3 && ln -s mynull $T/link' \
  '$SN plan --dot $T/link' 'islink $T/link && chr $T/mynull'
p out-symlink-loop 2 'Too many levels of symbolic links' \
  'ln -s b $T/a && ln -s a $T/b' '$SN plan -o $T/a'
p out-directory 2 'is a directory' '' '$SN plan -o $T' 'notmp $T'
p out-stdout 0 '' '' '$SN plan -o - --ledger -' \
  'grep -q accelerators $T/out && grep -q "^id," $T/out'
p out-mode-kept 0 '' 'echo old >$T/p.txt && chmod 600 $T/p.txt' \
  '$SN plan -o $T/p.txt' '[[ $(stat -c %a $T/p.txt) == 600 ]]'
p out-same-file-twice 2 'name the same file' 'echo old >$T/x' \
  '$SN plan --ledger $T/x --dot $T/x' '[[ $(cat $T/x) == old ]]'
p out-set-dot-fails 3 'missing/x.dot' \
  '$SN plan --ledger $T/l.csv && cp $T/l.csv $T/l.orig && echo old >$T/p.txt' \
  '$SN plan --ledger $T/l.csv --dot $T/missing/x.dot -o $T/p.txt --format json' \
  'cmp -s $T/l.csv $T/l.orig && [[ $(cat $T/p.txt) == old ]] && notmp $T'
p out-set-check 3 'missing' 'echo old >$T/c.json' \
  '$SN check --spec $spec --results $run1 --no-store --json $T/c.json --junit $T/missing/j.xml' \
  '[[ $(cat $T/c.json) == old ]] && notmp $T'
p out-set-kill 0 '' 'mkfifo $T/f' \
  '$SN plan -o $T/x --dot $T/f & pid=$!; sleep 2; kill -9 $pid; wait $pid; ls -A $T | grep -q "^\.sn-.*\.tmp$" && $SN plan -o $T/x' \
  'notmp $T && grep -q accelerators $T/x'
p out-stale-tmp 0 '' \
  'sleep 60 & pid=$!; kill -9 $pid; wait $pid; touch $T/.sn-$pid-abc123.tmp $T/.sn-1-live00.tmp' \
  '$SN plan -o $T/p.txt' \
  '! ls -A $T | grep -q "^\.sn-[0-9]*[02-9]-abc123" && [[ -e $T/.sn-1-live00.tmp ]]'
p out-dev-full-disk 3 'No space left on device' 'mkdir $T/d' \
  'unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs $T/d && echo old >$T/d/x && $SN plan examples/dgx-h100-superpod-4su.yaml --ledger $T/d/l.csv -o $T/d/x; r=\$?; ls -A $T/d >$T/ls; cat $T/d/x >$T/x; exit \$r"' \
  '! grep -q "^\.sn-" $T/ls && ! grep -q l.csv $T/ls && [[ $(cat $T/x) == old ]]'
p out-name-250 0 '' '' '$SN plan -o $T/$(long 250)' \
  '[[ -f $T/$(long 250) ]] && notmp $T'
p out-name-255 0 '' '' '$SN plan --ledger $T/$(long 255 b)' \
  '[[ -f $T/$(long 255 b) ]]'
p out-name-256 2 'File name too long' '' '$SN plan -o $T/$(long 256)' \
  'notmp $T'
p out-path-5000 2 'cannot write: File name too long' '' \
  '$SN plan -o $T/$(long 5000)'
p out-missing-dir 3 'cannot create' '' '$SN plan --ledger $T/no/such/l.csv'
p out-empty-name 2 "has an empty value" '' '$SN plan -o ""'
p out-bench-preflight 3 'cannot create' '' \
  '$SN bench memory --mem-size 1M -n 1 -w 0 --json $T/no/b.json' \
  '! grep -q Triad $T/out'
p out-check-preflight 3 'cannot create' '' \
  '$SN check --spec $spec --no-doctor --no-store --tests memory --iters 1 --junit $T/no/j.xml' \
  '! grep -q "run " $T/out'

# ---- 3. input files ---------------------------------------------------------

p in-path-5000 2 'cannot open: File name too long' '' \
  '$SN plan $(long 5000 p)'
p in-path-5000-validate 2 'File name too long' '' \
  '$SN validate $(long 5000 v).csv'
p in-db-path-5000 2 'File name too long' '' \
  '$SN runs import $run1 --db $T/$(long 5000)'
p in-db-path-5000-read 2 'File name too long' '' \
  '$SN runs list --db $T/$(long 5000)'
p in-fsroot-5000 2 'cannot use as root: File name too long' '' \
  '$SN doctor --nvml none --fsroot $T/$(long 5000)'
p in-matrix-5000 2 'File name too long' '' \
  '$SN doctor --nvml none --matrix $T/$(long 5000)'
p in-missing 2 'cannot open: No such file' '' '$SN plan $T/nothing.yaml'
p in-directory 2 '' '' '$SN validate $T'
p in-empty-arg 2 'argument 1 is empty' '' '$SN plan ""'
p import-huge 2 'larger than' 'head -c 20000000 /dev/zero | tr "\\0" " " >$T/r.json' \
  '$SN runs import $T/r.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-truncated 2 'r.json' 'head -c 700 $run1 >$T/r.json' \
  '$SN runs import $T/r.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-binary 2 '' 'head -c 4096 /dev/urandom >$T/r.json' \
  '$SN runs import $T/r.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-deep 2 '' \
  'perl -e "print q([) x 100000" >$T/r.json' \
  '$SN runs import $T/r.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
# (no row of random bytes can be predicted: exit 1, the reasons in the table)
p validate-random-bytes 1 '' \
  'head -n 1 tests/fixtures/validation/training-public.csv >$T/v.csv && perl -e "srand(1); print pack(q(C*), map { int(rand(256)) } 1 .. 3000000)" >>$T/v.csv' \
  '$SN validate $T/v.csv' 'noesc $T/out && utf8 $T/out'
p validate-random-json 1 '' \
  'head -n 1 tests/fixtures/validation/training-public.csv >$T/v.csv && perl -e "srand(2); print pack(q(C*), map { int(rand(256)) } 1 .. 1000000)" >>$T/v.csv' \
  '$SN validate $T/v.csv --format json -o $T/v.json' 'json $T/v.json'

# NCCL's topology dumps carry no DTD: a DOCTYPE is refused where it
# starts, before an entity is read (a 1 MB entity used 3,000 times in an
# attribute took 470 s and 2.95 GB before libxml2 gave up)
xbomb='python3 -c "import sys; sys.stdout.write(\"<?xml version=\\\"1.0\\\"?>\\n<!DOCTYPE system [<!ENTITY e \\\"\" + \"A\" * 980000 + \"\\\">]>\\n<system version=\\\"1\\\"><cpu numaid=\\\"0\\\" arch=\\\"\" + \"&e;\" * 3000 + \"\\\"/></system>\\n\")" >$T/b.xml'
export xbomb
p nccl-topo-entity-bomb 2 'b.xml:2:1: a DOCTYPE' "$xbomb" \
  '$SN doctor --nccl-topo $T/b.xml --spec tests/fixtures/nccl/hgx-h100.yaml'
p rel-nccl-topo-entity-bomb-fast 2 'b.xml:2:1: a DOCTYPE' "$xbomb" \
  'ulimit -v 262144; s=$(date +%s%N); $SN_REL doctor --nccl-topo $T/b.xml; r=$?; echo $((($(date +%s%N) - s) / 1000000)) >$T/ms; exit $r' \
  '[[ $(cat $T/ms) -lt 1000 ]]'
p nccl-topo-xxe 2 'x.xml:1:1: a DOCTYPE' \
  'printf "<!DOCTYPE s [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><system version=\"1\"><cpu numaid=\"&x;\"/></system>" >$T/x.xml' \
  '$SN doctor --nccl-topo $T/x.xml' '! grep -q root: $T/err'
p nccl-topo-bare-doctype 2 'a DOCTYPE' \
  'sed "1i <!DOCTYPE system>" tests/fixtures/nccl/healthy.xml >$T/d.xml' \
  '$SN doctor --nccl-topo $T/d.xml'

# ---- 4. strings from the machine ------------------------------------------------
# invalid UTF-8 and escape sequences are escaped where they are read

p text-doctor-fixture 0 '' \
  'tree $T/fx && printf "node\xff\x1b]0;pwned\x07\n" >$T/fx/proc/sys/kernel/hostname && printf "perf\x1b[31m\xfe\n" >$T/fx/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor' \
  '$SN doctor --fsroot $T/fx --nvml none' \
  'noesc $T/out && grep -q "x1b\]0;pwned" $T/out'
p text-doctor-fixture-json 0 '' \
  'tree $T/fx && printf "n\xc3\x28\x9b\n" >$T/fx/proc/sys/kernel/hostname' \
  '$SN doctor --fsroot $T/fx --nvml none --format json >$T/d.json' 'json $T/d.json'
p text-hostname-doctor 0 '' '' \
  'unshare -u bash -c "printf \"evil\xff\x1b[2J\" >/proc/sys/kernel/hostname && $SN doctor --nvml none --format json >$T/d.json && $SN doctor --nvml none >$T/d.txt"; r=$?; [ $r -le 1 ]' \
  'json $T/d.json && noesc $T/d.txt'
p text-hostname-check 0 '' '' \
  'unshare -u bash -c "printf \"evil\xff\x1b]0;t\x07\" >/proc/sys/kernel/hostname && $SN check --spec $spec --no-doctor --tests memory --iters 2 --db $T/r.db --json $T/c.json --junit $T/j.xml"; r=$?; [ $r -le 1 ] && $SN runs show 1 --db $T/r.db >$T/show.txt && $SN runs show 1 --db $T/r.db --format json >$T/run.json && $SN runs import $T/run.json --db $T/r2.db' \
  'json $T/c.json && xml $T/j.xml && noesc $T/show.txt && json $T/run.json'
p text-import-escape 0 '' \
  'jq -a ".host = \"evil\u001b]0;pwned\u0007\" | .user = \"u\u009b31m\"" $run1 >$T/r.json && $SN runs import $T/r.json --db $T/r.db' \
  '$SN runs show 1 --db $T/r.db && $SN runs list --db $T/r.db' \
  'noesc $T/out && grep -q "x1b\]0;pwned" $T/out'
p text-store-invalid-utf8 0 '' \
  'mkdb $T/r.db && sql $T/r.db "UPDATE runs SET host = CAST(x'"'"'6e6f6465ff1b5b306d'"'"' AS TEXT)"' \
  '$SN runs show 1 --db $T/r.db --format json >$T/run.json && $SN runs import $T/run.json --db $T/r2.db && $SN runs show 1 --db $T/r.db >$T/show.txt' \
  'json $T/run.json && noesc $T/show.txt'
p text-junit-health 1 '' \
  'jq -a ".health = [{host: \"n\u001b0\", name: \"cpu.governor\", status: \"FAIL\", subject: \"cpu\u0001\", evidence: \"gov \u001b[31m\u0085 \ufffe\", remedy: \"r\"}]" $run1 >$T/r.json' \
  '$SN check --spec $spec --results $T/r.json --no-store --junit $T/j.xml --json $T/c.json' \
  'xml $T/j.xml && json $T/c.json && noesc $T/out'

# ---- 5. node-health probes that must not hang -------------------------------

p doctor-fifo-governor 0 '' \
  'tree $T/fx && f=$T/fx/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor && rm $f && mkfifo $f' \
  '$SN doctor --fsroot $T/fx --nvml none'
p doctor-fifo-hwloc 3 'did not finish within 3 s' \
  'tree $T/fx && f=$T/fx/sys/devices/system/cpu/online && rm $f && mkfifo $f' \
  '$SN doctor --fsroot $T/fx --nvml none --timeout 3'
p bench-fifo-governor 0 '' \
  'tree $T/fx && f=$T/fx/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor && rm $f && mkfifo $f' \
  '$SN bench memory --mem-size 1M -n 1 -w 0 --fsroot $T/fx'
p doctor-timeout-zero 2 '--timeout' '' '$SN doctor --timeout 0'

# ---- 6. options ---------------------------------------------------------------
# zero and empty values, values that are not, options that contradict

p opt-bench-b0 2 '-b: a size of 0 bytes' '' '$SN bench coll -b 0'
p opt-bench-e0 2 '-e: a size of 0 bytes' '' '$SN bench coll -e 0'
p opt-bench-mem0 2 '--mem-size: a size of 0 bytes' '' '$SN bench memory --mem-size 0'
p opt-bench-size0 2 '--size: a size of 0 bytes' '' '$SN bench pairs --size 0'
p opt-bench-lat0 2 '--lat-size: a size of 0 bytes' '' '$SN bench latency --lat-size 0'
p opt-bench-host0 2 '--host-size: a size of 0 bytes' '' '$SN bench h2d --host-size 0'
p opt-bench-ops-empty 2 "'--ops' has an empty value" '' '$SN bench coll --ops ""'
p opt-bench-ops-comma 2 'an empty name' '' '$SN bench coll --ops ,'
p opt-bench-dtypes-empty 2 "'--dtypes' has an empty value" '' '$SN bench compute --dtypes ""'
p opt-bench-fsroot-missing 2 'cannot use as root' '' \
  '$SN bench memory --fsroot /nonexistent'
p opt-bench-fsroot-file 2 'not a directory' '' '$SN bench memory --fsroot $spec'
p opt-bench-json-empty 2 "'--json' has an empty value" '' '$SN bench memory --json ""'
p opt-bench-check-contradict 2 'contradict each other' '' \
  '$SN bench coll -c 1 --no-check'
p opt-check-tests-empty 2 "'--tests' has an empty value" '' \
  '$SN check --spec $spec --tests "" --no-doctor'
p opt-check-tests-comma 2 'an empty name' '' \
  '$SN check --spec $spec --tests compute,,pairs --no-doctor'
p opt-check-nvml-empty 2 "'--nvml' has an empty value" '' \
  '$SN check --spec $spec --nvml ""'
p opt-doctor-fsroot-empty 2 "'--fsroot' has an empty value" '' \
  '$SN doctor --fsroot ""'
p opt-sim-pairs-all-classes 2 'opposite listings' '' '$SN sim pairs --all --classes'
p opt-sim-pairs-classes-all 2 'opposite listings' '' '$SN sim pairs --classes --all'
p opt-sim-train-sp 2 'contradict each other' '' \
  '$SN sim train --model llama3-8b --no-sp --sp'
p opt-sim-coll-b0 2 'sizes must run from 1 byte' '' '$SN sim coll -b 0'
p opt-sim-ranks-group 2 'not both' '' '$SN sim coll --ranks 4 --group domain'
p opt-sweep-bad-value 2 "value 2 of 3, 'abc'" '' \
  '$SN sweep --set supernode.accelerators=8,abc,16 --model llama3-8b' \
  '[[ ! -s $T/out ]]'
p opt-sweep-bad-fixed 2 "--set supernode.tiers=x" '' \
  '$SN sweep --set supernode.tiers=x --set supernode.accelerators=8,16 --model llama3-8b' \
  '[[ ! -s $T/out ]]'
p opt-sweep-empty-value 2 'an empty value' '' \
  '$SN sweep --set supernode.accelerators=8,,16 --model llama3-8b'
p opt-runs-db-eq 2 "'--db=' has an empty value" '' '$SN runs list --db='
p opt-plan-format 2 "unknown format" '' '$SN plan --format yaml'

# ---- 7. bench: sizes, sweeps and faults ------------------------------------------

p bench-mem-100G 2 "more than this rank's share of the host's memory" '' \
  '$SN bench memory --mem-size 100G -n 1 -w 0' '! grep -q Triad $T/out'
# ulimit -v: the release build (a sanitizer build cannot start under it)
p rel-bench-mem-ulimit-100G 2 "more than this rank's share of the host's memory" '' \
  '(ulimit -v 4000000; exec $SN_REL bench memory --mem-size 100G -n 1 -w 0)'
p rel-bench-mem-ulimit 2 'more than this process may map (ulimit -v' '' \
  '(ulimit -v 4000000; exec $SN_REL bench memory --mem-size 2G -n 1 -w 0)'
p bench-gemm-65536 2 'GEMM operands 3 x 32 GiB' '' \
  '$SN bench compute --gemm-size 65536 -n 1 -w 0'
p bench-msg-4G 2 'beyond what one MPI call moves' '' \
  '$SN bench coll -b 4G -e 4G -n 1 -w 0'
p bench-alloc-fails 3 'cannot allocate the STREAM arrays' '' \
  'ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=64 $SN bench memory --mem-size 100M -n 1 -w 0' \
  '! grep -q "Sanitizer: requested allocation" $T/err'
p bench-coll-empty-sweep 2 'coll: no size from 8 to 8 B can run' '' \
  'mpirun -np 2 --oversubscribe $SN bench coll -b 8 -e 8 -d fp64 --ops allgather --json $T/b.json' \
  '[[ ! -e $T/b.json ]]'
p bench-coll-odd-sizes 2 'coll: no size from 7 to 13 B can run' '' \
  'mpirun -np 2 --oversubscribe $SN bench coll -b 7 -e 13 -d fp64 -n 1 -w 0'
p bench-coll-skipped-said 0 '' '' \
  'mpirun -np 2 --oversubscribe $SN bench coll -b 8 -e 64 -f 2 -d fp64 --ops allgather -n 1 -w 0 --json $T/b.json' \
  'grep -q "coll allgather: 8 B skipped: under one 8-byte fp64 element per rank" $T/out && jq -e ".results | length > 0" $T/b.json'
p bench-inject-outside 2 '--inject: rank 5 is not a rank of this job (0 to 1)' '' \
  'mpirun -np 2 --oversubscribe $SN bench memory --mem-size 1M -n 1 -w 0 --inject hang:rank=5'
p bench-inject-outside-one 2 'not a rank of this job (0 to 0)' '' \
  '$SN bench memory --mem-size 1M -n 1 -w 0 --inject die:rank=1'

# ---- 8. check -------------------------------------------------------------------

p check-other-spec 0 "note: the run was measured on spec 'cpu-cluster'" '' \
  '$SN check --spec examples/seed-64.yaml --results $run1 --no-store'
p check-same-spec-quiet 0 '' '' \
  '$SN check --spec $spec --results $run1 --no-store' \
  '! grep -q "measured on spec" $T/err'
p check-run-other-spec 0 "judged against 'seed-64'" 'mkdb $T/r.db' \
  '$SN check --spec examples/seed-64.yaml --run 1 --db $T/r.db'

# ---- 9. the node agent (issue 29) ----------------------------------------------
# slow clients, late collectors, hostile sysfs and kernel-log values, the
# secrets' files and signals; the agent on an empty or small --fsroot

# a free TCP port on loopback
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
export -f free_port

# late answers are evaluated: XID 79 on 20 GPUs, one a kernel-log line
# every 0.25 s, the agent niced behind three busy loops with a deadline its
# collectors often miss; each becomes an event (before, an answer that
# came late was overwritten by the next run)
p agent-late-answers-evaluated 0 '' 'mkdir -p $T/r/dev && : >$T/r/dev/kmsg' \
  'port=$(free_port); nice -n 19 $SN watch --db $T/e.db --nvml none --fsroot $T/r --listen 127.0.0.1:$port --interval 0.2s --timeout 0.01s --host n1 & a=$!
   for b in 1 2 3; do timeout 9 sh -c "while :; do :; done" & done
   for i in $(seq 100); do curl -s http://127.0.0.1:$port/metrics | grep -q "^supernode_collector_up{collector=\"klog\"} 1" && break; sleep 0.1; done
   for i in $(seq 10 29); do echo "4,$i,1,-;NVRM: Xid (PCI:0000:$i:00): 79, pid=0, GPU has fallen off the bus." >>$T/r/dev/kmsg; sleep 0.25; done
   sleep 1.5; kill $a; wait $a' \
  '[[ $($SN events list --db $T/e.db --format json | jq "[.events[] | select(.rule == \"gpu_xid\")] | length") == 20 ]]'
# 2,000 connections from 4 addresses dripping heads: a scrape from a fifth
# answered within 1 s throughout
p agent-drip-2000 0 'serving' '' \
  'port=$(free_port); $SN watch --db none --nvml none --fsroot $T --listen 127.0.0.1:$port --interval 1s & a=$!
   sleep 1; python3 bench/watch-drip.py $port --seconds 8 >$T/drip; rc=$?; kill $a; wait $a; cat $T/drip >&2; exit $rc'
# a password over plain http:// to a name that is not this host's address
p agent-redfish-127-name 0 "cannot resolve '127.bmc.invalid'" \
  'printf "u:p\n" >$T/c && chmod 600 $T/c' \
  '$SN watch --once --db none --nvml none --fsroot $T --redfish http://127.bmc.invalid --redfish-credentials $T/c' \
  'grep -q "supernode_collector_up{collector=\"redfish\"} 0" $T/out'
p agent-tls-key-0644 2 "--tls-key '" \
  'printf x >$T/cert && printf y >$T/key && chmod 644 $T/key' \
  '$SN watch --db none --nvml none --fsroot $T --listen 127.0.0.1:0 --tls-cert $T/cert --tls-key $T/key' \
  'grep -q "chmod 600" $T/err'
p agent-basic-auth-0644 2 '--basic-auth: credentials file' \
  'printf "u:p\n" >$T/a && chmod 644 $T/a' \
  '$SN watch --db none --nvml none --fsroot $T --listen 127.0.0.1:0 --basic-auth $T/a' \
  '! grep -qi redfish $T/err'
p agent-basic-auth-empty-password 2 'empty password' \
  'printf "u:\n" >$T/a && chmod 600 $T/a' \
  '$SN watch --db none --nvml none --fsroot $T --listen 127.0.0.1:0 --basic-auth $T/a'
# SIGUSR1 is ignored, SIGHUP is a clean stop (exit 0), as SIGTERM
p agent-sighup-clean-stop 0 'stopping (signal 1)' '' \
  '$SN watch --db none --nvml none --fsroot $T --listen 127.0.0.1:0 --interval 0.5s & a=$!
   sleep 1.5; kill -USR1 $a; sleep 0.5; kill -0 $a || exit 9; kill -HUP $a; wait $a'
# a --textfile that cannot be written is said once, not every interval
p agent-textfile-fails-once 0 '--textfile' \
  'mkdir -p $T/tf/supernode.prom/x' \
  '$SN watch --db none --nvml none --fsroot $T --listen 127.0.0.1:0 --interval 0.1s --textfile $T/tf & a=$!
   sleep 2; kill $a; wait $a' \
  '[[ $(grep -c -- "--textfile" $T/err) == 1 ]]'
# two hwmon chips of one name with one device basename: both read
p agent-hwmon-same-name 0 '' \
  'for i in 0 1; do d=$T/r/sys/class/hwmon/hwmon$i; mkdir -p $d $T/r/sys/devices/i2c-$i/1-0058; echo pmbus >$d/name; echo 4${i}000 >$d/temp1_input; ln -s $T/r/sys/devices/i2c-$i/1-0058 $d/device; done' \
  '$SN watch --once --db none --nvml none --fsroot $T/r' \
  'grep -q "supernode_collector_up{collector=\"hwmon\"} 1" $T/out && grep -q "chip=\"pmbus:hwmon1\"" $T/out'
# 4,000 veths do not push the 8 NICs out of the net collector's cap
p agent-net-4000-veths 0 '' \
  'mkdir -p $T/r/sys/class/net && cd $T/r/sys/class/net && mkdir veth{0000..3999} && for i in 0 1 2 3 4 5 6 7; do mkdir -p ens$i/device && echo up >ens$i/operstate; done' \
  '$SN watch --once --db none --nvml none --fsroot $T/r' \
  '[[ $(grep -c "^supernode_net_up{" $T/out) == 8 ]]'
# an AER counter past 2^63 (the kernel's are u64): no overflow, the rest read
p doctor-aer-counter-u64 1 '' \
  'tree $T/n && printf "RxErr 99999999999999999999\nBadTLP 18446744073709551615\n" >$T/n/sys/bus/pci/devices/0000:03:00.0/aer_dev_correctable' \
  '$SN doctor --fsroot $T/n' \
  'grep -q "0000:04:00.0.*correctable 0" $T/out'

# a store held by another writer (an open sqlite3 session, a VACUUM)
# loses no measurement: a write waits (--db-wait), then the whole run goes
# to a file beside the database that `runs import` stores later; --json
# and --junit are written whatever the store does
hold='mkfifo $T/f; sqlite3 $T/r.db <$T/f & h=$!; exec 3>$T/f; echo "BEGIN IMMEDIATE; CREATE TABLE hold(x);" >&3; sleep 1'
unhold='r=$?; exec 3>&-; wait $h; exit $r'
export hold unhold
p check-store-held-spooled 0 'is kept in' 'mkdb $T/r.db' \
  "$hold; \$SN check --spec examples/one-host.yaml --no-doctor --tests memory --iters 1 --db \$T/r.db --db-wait 2 --json \$T/c.json --junit \$T/j.xml; $unhold" \
  'grep -q "another process holds the write lock" $T/err && json $T/c.json && xml $T/j.xml && s=$(ls $T/r.db.run-*.json) && n=$(jq ".results | length" $s) && [[ $n -gt 0 ]] && $SN runs import $s --db $T/r.db && [[ $(sqlite3 $T/r.db "select count(*) from results where run_id = (select max(id) from runs)") == "$n" ]] && [[ $(sqlite3 $T/r.db "select complete || verdict from runs where id = (select max(id) from runs)") == 1PASS ]]'
p check-store-held-results 3 'not stored; the run stays in' 'mkdb $T/r.db' \
  "$hold; \$SN check --spec \$spec --results \$run1 --db \$T/r.db --db-wait 1 --json \$T/c.json --junit \$T/j.xml; $unhold" \
  'json $T/c.json && xml $T/j.xml && [[ $(sqlite3 $T/r.db "select count(*) from runs") == 1 ]]'
p check-store-held-signalled 3 'is kept in' 'mkdb $T/r.db' \
  "$hold; \$SN check --spec examples/one-host.yaml --no-doctor --tests memory --iters 100000 --db \$T/r.db --db-wait 1 2>\$T/e & c=\$!; for i in \$(seq 300); do grep -q '^check: memory' \$T/e && break; sleep 0.1; done; sleep 1; kill -TERM \$c; wait \$c; r=\$?; cat \$T/e >&2; exec 3>&-; wait \$h; exit \$r" \
  's=$(ls $T/r.db.run-*.json) && jq -e ".complete == false" $s && $SN runs import $s --db $T/r.db && [[ $(sqlite3 $T/r.db "select count(*) from runs where not complete") == 1 ]]'
p check-store-held-then-free 0 '' 'mkdb $T/r.db' \
  '{ echo "BEGIN IMMEDIATE; CREATE TABLE hold(x);"; sleep 4; echo "ROLLBACK;"; } | sqlite3 $T/r.db & sleep 1; $SN check --spec examples/one-host.yaml --no-doctor --tests memory --iters 1 --db $T/r.db --db-wait 60 --json $T/c.json; r=$?; wait; exit $r' \
  '! ls $T/r.db.run-* && [[ $(sqlite3 $T/r.db "select count(*) from runs where complete and verdict = \"PASS\"") == 1 ]] && json $T/c.json'

# ---- 10. one hostile name through every output --------------------------------
# each output read back by its own parser: graphviz for DOT, promtool and
# libyaml for the rule file, xmllint for HTML, SVG and XML, jq for JSON,
# Python's csv for CSV; the terminal gets no control byte

p esc-plan-dot 0 '' 'evil_spec $T/s.yaml' \
  '$SN plan $T/s.yaml --dot $T/p.dot --ledger $T/l.csv && $SN plan examples/cpu-cluster.yaml --dot $T/good.dot' \
  'noesc $T/out && utf8 $T/out && [[ $(dotnodes $T/p.dot) == "$(dotnodes $T/good.dot)" ]] && dot -Tplain $T/p.dot | head -n 1 | grep -q "^graph " && python3 -c "import csv, sys; rows = list(csv.reader(open(sys.argv[1]))); assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows)" $T/l.csv'
p esc-plan-json 0 '' 'evil_spec $T/s.yaml' \
  '$SN plan $T/s.yaml --format json -o $T/p.json' \
  'json $T/p.json && jq -e "[.. | strings | select(test(\"Injected\"))] | length > 0" $T/p.json'
p esc-spec-check 0 '' 'evil_spec $T/s.yaml' '$SN spec check $T/s.yaml' \
  'noesc $T/out && [[ $(wc -l <$T/out) -eq $($SN spec check examples/cpu-cluster.yaml | wc -l) ]]'
p esc-watch-rules 0 '' 'evil_spec $T/s.yaml' \
  '$SN watch rules $T/s.yaml >$T/r.yml && $SN watch rules examples/cpu-cluster.yaml >$T/good.yml' \
  'yaml $T/r.yml && promtool check rules $T/r.yml && [[ $(python3 -c "import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); print(list(d), [r[\"alert\"] for g in d[\"groups\"] for r in g[\"rules\"]])" $T/r.yml) == "$(python3 -c "import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); print(list(d), [r[\"alert\"] for g in d[\"groups\"] for r in g[\"rules\"]])" $T/good.yml)" ]] && noesc $T/r.yml'
p esc-report-power 0 '' \
  'evil_spec $T/s.yaml && jq ".dtype = \"<plaintext>&\u0001\"" tests/fixtures/power/h100-limits.json >$T/pw.json' \
  '$SN report $T/s.yaml --power $T/pw.json -o $T/r.html' \
  'utf8 $T/r.html && noesc $T/r.html && [[ $(xmllint --html --xpath "count(//plaintext)" $T/r.html 2>/dev/null) == 0 ]] && [[ $(xmllint --html --xpath "count(//section[@id=\"power\"]//figure)" $T/r.html 2>/dev/null) == 2 ]] && xmllint --html --xpath "string(//title)" $T/r.html 2>/dev/null | grep -q "Injected" && ! LC_ALL=C grep -qP "[\x00-\x08\x0b\x0c\x0e-\x1f]" $T/r.html'
p esc-check-json-junit 0 '' 'evil_spec $T/s.yaml' \
  '$SN check --spec $T/s.yaml --results $run1 --no-store --json $T/c.json --junit $T/j.xml' \
  'json $T/c.json && xml $T/j.xml && noesc $T/out && jq -e "[.. | strings | select(test(\"Injected\"))] | length > 0" $T/c.json'

# ---- 11. the rest of issue 29 -------------------------------------------------
# the agent's request heads: one just under the 8 KiB cap is answered, one
# past it gets 431, both at once (before, MHD's pool held the head but not
# the answer: no status line at all)
p agent-head-under-cap-answered 0 '' '' \
  'port=$(free_port); $SN watch --db none --nvml none --fsroot $T --listen 127.0.0.1:$port --interval 0.2s & a=$!
   for i in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$port/ && break; sleep 0.1; done
   for n in 7000 7600 7800 8000; do printf "%s " $(curl -s -m 2 -o /dev/null -w "%{http_code}" -H "X-Long: $(long $n)" http://127.0.0.1:$port/metrics); done >$T/codes
   for n in 8200 9000 12000 20000; do printf "%s " $(curl -s -m 2 -o /dev/null -w "%{http_code}" -H "X-Long: $(long $n)" http://127.0.0.1:$port/metrics); done >>$T/codes
   kill $a; wait $a' \
  '[[ $(cat $T/codes) == "200 200 200 200 431 431 431 431 " ]]'
# a store this user may not write is said to be read-only, and why (before:
# "cannot read the schema version" or "unable to open database file")
p store-ro-file-write-says-so 3 'read-only: this user may not write the file (mode 444' \
  'mkdb $T/r.db && chmod 444 $T/r.db && chmod 777 $T' \
  'setpriv --reuid=65534 --regid=65534 --clear-groups $SN runs import $run1 --db $T/r.db' \
  '[[ $(sqlite3 $T/r.db "SELECT count(*) FROM runs") == 1 ]]'
p store-ro-dir-write-says-so 3 'read-only: this user may not write its directory' \
  'mkdir $T/d && mkdb $T/d/r.db && chmod 666 $T/d/r.db && chmod 755 $T/d $T' \
  'setpriv --reuid=65534 --regid=65534 --clear-groups $SN runs import $run1 --db $T/d/r.db'
p store-ro-fs-write-says-so 3 'read-only: it is on a read-only file system' \
  'mkdir $T/d && mkdb $T/d/r.db' \
  'unshare -m sh -c "mount --bind -o ro $T/d $T/d && $SN runs import $run1 --db $T/d/r.db"'
# expert parallelism on a dense model says so (before: "must divide the 0
# experts", and for serving "more than twice the 1 experts")
p sim-train-ep-dense 2 'ep 7 needs a mixture-of-experts model: llama3-8b is dense' '' \
  '$SN sim train examples/dgx-h100-superpod-4su.yaml --model llama3-8b --gpus 8 --tp 1 --dp 8 --ep 7'
p sim-train-etp-dense 2 'etp 2 needs a mixture-of-experts model: llama3-8b is dense' '' \
  '$SN sim train examples/dgx-h100-superpod-4su.yaml --model llama3-8b --gpus 8 --tp 2 --dp 4 --etp 2'
p sim-infer-ep-dense 2 'ep 4 needs a mixture-of-experts model: llama3-8b is dense' '' \
  '$SN sim infer examples/dgx-h100-superpod-4su.yaml --model llama3-8b --gpus 8 --tp 4 --ep 4'
# runs import refuses a document that contradicts itself or names no real
# time, at its place in the file, and writes nothing (before: all stored)
p import-finished-before-started 2 "i.json:4:15: 'finished' (2026-11-29T09:00:00Z) is before 'started'" \
  'jq ".finished=\"2026-11-29T09:00:00Z\"" $run1 >$T/i.json' \
  '$SN runs import $T/i.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-no-such-day 2 "i.json:3:14: 'started' is '2026-02-30T10:00:00Z', which is no such time" \
  'jq ".started=\"2026-02-30T10:00:00Z\"" $run1 >$T/i.json' \
  '$SN runs import $T/i.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-not-a-time 2 "i.json:3:14: 'started' must be a UTC time" \
  'jq ".started=\"last tuesday\"" $run1 >$T/i.json' \
  '$SN runs import $T/i.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-in-the-future 2 "'started' is '2126-11-29T10:00:00Z', in the future" \
  'jq ".started=\"2126-11-29T10:00:00Z\" | .finished=\"2126-11-29T10:00:30Z\"" $run1 >$T/i.json' \
  '$SN runs import $T/i.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-n-contradicts-samples 2 "i.json:60:12: 'n' is 3 but there are 10 samples" \
  'jq ".results[1].n=3" $run1 >$T/i.json' \
  '$SN runs import $T/i.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-nresults-contradicts 2 "'nresults' is 3 but there are 28 results" \
  'jq ".nresults=3" $run1 >$T/i.json' \
  '$SN runs import $T/i.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
p import-rank-past-ranks 2 "i.json:43:12: rank 4 is past the run's 4 ranks" \
  'jq ".results[1].a=4" $run1 >$T/i.json' \
  '$SN runs import $T/i.json --db $T/r.db' '[[ ! -e $T/r.db ]]'
# a bench power document whose limits fall outside its own allowed range
p power-limit-outside-range 2 'point 1: limit_w 900 W is outside the document' \
  'jq ".points[0].limit_w=900" tests/fixtures/power/h100-limits.json >$T/p.json' \
  '$SN report --power $T/p.json -o $T/r.html' '[[ ! -e $T/r.html ]]'
p power-min-above-max 2 '"min_limit_w" 800 W is above "max_limit_w" 700 W' \
  'jq ".min_limit_w=800" tests/fixtures/power/h100-limits.json >$T/p.json' \
  '$SN report --power $T/p.json -o $T/r.html' '[[ ! -e $T/r.html ]]'
# what runs show exports, import takes back whole
p import-roundtrip 0 '' 'mkdb $T/a.db && $SN runs show 1 --db $T/a.db --format json >$T/i.json' \
  '$SN runs import $T/i.json --db $T/r.db' '[[ $(sqlite3 $T/r.db "SELECT count(*) FROM results") == 28 ]]'
# an event that starts while the disk is full is kept and stored once
# there is room (before: counted in store_errors and lost): the store on a
# 512 KiB tmpfs filled up, an XID 79, then room made
p agent-disk-full-event-kept 0 '' 'mkdir -p $T/r/dev $T/d && : >$T/r/dev/kmsg' \
  'unshare -m bash -c "mount -t tmpfs -o size=512k tmpfs $T/d || exit 9
   port=\$(free_port); $SN watch --db $T/d/e.db --nvml none --fsroot $T/r --listen 127.0.0.1:\$port --interval 0.2s --host n1 & a=\$!
   for i in \$(seq 100); do curl -s http://127.0.0.1:\$port/metrics | grep -q \"^supernode_collector_up{collector=.klog.} 1\" && break; sleep 0.1; done
   dd if=/dev/zero of=$T/d/fill bs=4k 2>/dev/null
   echo \"4,1,1,-;NVRM: Xid (PCI:0000:10:00): 79, pid=0, GPU has fallen off the bus.\" >>$T/r/dev/kmsg
   sleep 1.5; curl -s http://127.0.0.1:\$port/metrics >$T/full.prom
   rm $T/d/fill; sleep 1; curl -s http://127.0.0.1:\$port/metrics >$T/room.prom
   kill \$a; wait \$a; r=\$?; $SN events list --db $T/d/e.db --format json >$T/ev.json; exit \$r"' \
  'grep -q "^supernode_rules_events_pending 1" $T/full.prom && grep -q "^supernode_rules_events_pending 0" $T/room.prom && [[ $(jq "[.events[] | select(.rule == \"gpu_xid\")] | length" $T/ev.json) == 1 ]]'

# ---- 12. one hostile name through every other output ---------------------------
# the hostile name of section 10 (and strings as hostile as each input
# admits) through report, export, sim, sweep, validate, runs, baseline,
# events, doctor, the agent's metrics and catalog; each output read back
# by its parser, and a text output keeps one line per line: no "- alert"
# line of its own, no terminal escape, valid UTF-8
EVIL_NAME='"evil\\" -- n99 [label=\\"pwn\\"]; x=\\"<plaintext>\&amp;%s%n\\\\ \\n- alert: Injected\\x01\\e[31m\\u2028end'"'"' ]]>"'
# the same for a JSON string (jq), within the store's 63 characters
EVIL_JSON='e\" <p>&a;%s\\ \n- alert: Injected\u0001\u001b[31m\u2028x'"'"' ]]>'
export EVIL_NAME EVIL_JSON
# SRC under the hostile name at OUT
evil_named() {
    sed "s/^name: .*/name: $EVIL_NAME/" "$1" >"$2"
    grep -q '^name: "evil' "$2"
}
# one text output: no injected line, no escape, valid UTF-8
oneline() { utf8 "$1" && noesc "$1" && ! grep -q '^- alert' "$1"; }
# DeepSeek-V3 as a model file whose free text is hostile (a model file's
# display and source must be printable: no control byte gets in)
evil_model() {
    sed -e 's/^display: .*/display: "evil\\" <b>x<\/b>\&amp;%s%n\\\\ ]]> y'"'"' z"/' \
        -e 's/^source: .*/source: "<plaintext>\&amp;\\" ]]>"/' \
        examples/models/deepseek-v3.yaml >"$1"
    grep -q '^display: "evil' "$1"
}
# a run whose host, user, tool, versions and spec name are hostile
evil_run() {
    jq ".host=\"$EVIL_JSON\" | .user=\"$EVIL_JSON\" | .tool=\"e\\\"<&%\\\\\\n- a: I\\u0001\\u001b\\u2028']]>\" | .versions=\"$EVIL_JSON\" | .spec_name=\"$EVIL_JSON\"" \
        "$run1" >"$1"
}
# the element names of an HTML document, one a line, in document order
tags() {
    python3 -c '
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def handle_starttag(self, tag, attrs): print(tag)
P().feed(open(sys.argv[1], encoding="utf-8").read())' "$1"
}
# the DOM headless Chromium builds from an HTML file
dom() {
    timeout 90 chromium --headless --no-sandbox --disable-gpu \
        --dump-dom "file://$(realpath "$1")" 2>/dev/null
}
export -f evil_named oneline evil_model evil_run tags dom

# the whole report (design, predictions with a model, a stored run with
# its baseline, power, history) for a hostile spec, model, run and
# power file, against the same report made of harmless names: the page
# has the same elements in xmllint and in Chromium's DOM, no <plaintext>
p esc-report-whole 0 '' \
  'evil_named examples/dgx-h100-superpod-su.yaml $T/s.yaml && evil_model $T/m.yaml && evil_run $T/run.json &&
   for i in 1 2 3; do $SN runs import $T/run.json --db $T/r.db && $SN runs import $run1 --db $T/g.db; done &&
   $SN baseline save b --db $T/r.db --force && $SN baseline save b --db $T/g.db --force &&
   jq ".dtype = \"<plaintext>&\u0001\"" tests/fixtures/power/h100-limits.json >$T/pw.json &&
   sed "s/^name: .*/name: good/" examples/dgx-h100-superpod-su.yaml >$T/g.yaml &&
   sed -e "s/^display: .*/display: good/" -e "s/^source: .*/source: good/" examples/models/deepseek-v3.yaml >$T/gm.yaml' \
  '$SN report $T/s.yaml --model $T/m.yaml --gpus 64 --db $T/r.db --run 1 --baseline b --power $T/pw.json -o $T/r.html &&
   $SN report $T/g.yaml --model $T/gm.yaml --gpus 64 --db $T/g.db --run 1 --baseline b --power tests/fixtures/power/h100-limits.json -o $T/g.html' \
  'utf8 $T/r.html && noesc $T/r.html && ! LC_ALL=C grep -qP "[\x00-\x08\x0b\x0c\x0e-\x1f]" $T/r.html &&
   [[ $(xmllint --html --xpath "count(//plaintext)" $T/r.html 2>/dev/null) == 0 ]] &&
   [[ $(xmllint --html --xpath "count(//section)" $T/r.html 2>/dev/null) == 5 ]] &&
   xmllint --html --xpath "string(//title)" $T/r.html 2>/dev/null | grep -q "Injected" &&
   grep -q "Injected" $T/r.html && grep -q "evil&quot; &lt;b&gt;x" $T/r.html &&
   [[ "$(tags $T/r.html)" == "$(tags $T/g.html)" ]] &&
   { ! command -v chromium >/dev/null || { dom $T/r.html >$T/r.dom && dom $T/g.html >$T/g.dom && [[ -s $T/r.dom ]] && ! grep -qi "<plaintext" $T/r.dom && [[ "$(tags $T/r.dom)" == "$(tags $T/g.dom)" ]]; }; }'
# a spec's own catalog entries bring free text (vendor, source) into
# catalog, plan and the report
p esc-catalog-user-entry 0 '' \
  'sed -e "s/^      source: .*/      source: $EVIL_NAME/" -e "s/^      vendor: Lab/      vendor: $EVIL_NAME/" tests/fixtures/specs/good/custom-catalog.yaml >$T/c.yaml && grep -q "vendor: \"evil" $T/c.yaml' \
  'for w in list "show lab-npu" "show lab-switch"; do $SN catalog $w --spec $T/c.yaml >$T/t.txt && oneline $T/t.txt && $SN catalog $w --spec $T/c.yaml --format json >$T/t.json && json $T/t.json || exit 9; done;
   $SN report $T/c.yaml -o $T/r.html' \
  'grep -q "vendor  *evil.*Injected" <($SN catalog show lab-npu --spec $T/c.yaml) && utf8 $T/r.html && noesc $T/r.html && [[ $(xmllint --html --xpath "count(//plaintext)" $T/r.html 2>/dev/null) == 0 ]]'
# the exports: the design name enters the comments and the Kubernetes
# labels, the hosts never but as host names
p esc-export 0 '' \
  'evil_named examples/gb200-nvl72.yaml $T/g.yaml && evil_named examples/cloudmatrix-384.yaml $T/c.yaml && evil_named examples/dgx-h100-superpod-su.yaml $T/d.yaml' \
  '$SN export nccl-topo $T/g.yaml -o $T/n.xml && $SN export nccl-topo $T/d.yaml --machine tests/fixtures/machine/dgx-h100.txt -o $T/m.xml &&
   $SN export slurm $T/g.yaml -o $T/t.conf && $SN export slurm $T/c.yaml --plugin both -o $T/t.yaml &&
   $SN export hostfile $T/g.yaml -o $T/h.txt && $SN export rankfile $T/g.yaml -o $T/rk.txt && $SN export k8s $T/g.yaml -o $T/k.sh' \
  'xml $T/n.xml && xml $T/m.xml && grep -q "design .evil" $T/n.xml && yaml $T/t.yaml &&
   for f in $T/t.conf $T/h.txt $T/rk.txt; do oneline $f && ! grep -q "Injected\|plaintext" $f || exit 1; done && oneline $T/k.sh &&
   [[ $(grep -vc "^#" $T/h.txt) == 18 ]] && ! grep -v "^#" $T/h.txt | grep -qv "^node[0-9]* slots=4$" &&
   ! grep -v "^#" $T/rk.txt | grep -qv "^rank [0-9]*=node[0-9]* slot=[0-9]*:[0-9]*$" &&
   ! grep -v "^#" $T/t.conf | grep -qv "^\(BlockName=sn[0-9]* Nodes=node\[[0-9-]*\]\|BlockSizes=[0-9,]*\)$" &&
   bash -n $T/k.sh && [[ $(grep -c "^kubectl label node --overwrite node[0-9]* supernode.io/scaleup-clique=[A-Za-z0-9._-]*$" $T/k.sh) == 18 ]]'
# sim, text and JSON (before: the text headings wrote the spec name raw,
# its line break starting a line of its own)
p esc-sim 0 '' 'evil_named examples/dgx-h100-superpod-su.yaml $T/d.yaml && evil_model $T/m.yaml' \
  'for c in "pairs $T/d.yaml" "coll $T/d.yaml --op allgather" "train $T/d.yaml --model llama3-8b --gpus 64" "infer $T/d.yaml --model llama3-8b --gpus 16" "train $T/d.yaml --model $T/m.yaml" "infer $T/d.yaml --model $T/m.yaml --gpus 16"; do
     $SN sim $c >$T/t.txt; r=$?; $SN sim $c --format json >$T/t.json; r=$((r > $? ? r : $?))
     [[ $r -le 1 ]] && oneline $T/t.txt && grep -q "evil.*Injected" $T/t.txt && json $T/t.json && jq -e "[.. | strings | select(test(\"Injected\"))] | length > 0" $T/t.json >/dev/null || { echo "sim $c" >&2; exit 9; }; done'
p esc-sweep 0 '' 'evil_named examples/gb200-nvl72.yaml $T/g.yaml && evil_model $T/m.yaml' \
  '$SN sweep $T/g.yaml --set supernode.accelerators=36,72 --model $T/m.yaml --gpus 72 >$T/t.txt && $SN sweep $T/g.yaml --set supernode.accelerators=36,72 --model $T/m.yaml --gpus 72 --format json >$T/t.json' \
  'oneline $T/t.txt && json $T/t.json'
# validate with hostile source, model and notes cells, one invalid UTF-8
# (before: the table and the worst rows wrote the line breaks raw)
p esc-validate 0 '' \
  'python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
ev = \"evil\\\" -- <plaintext>&amp;%s%n\\\\ \\n- alert: Injected\\x01\\x1b[31m\\u2028end\\x27 ]]>\\udcff\"
out = [rows[0]]
for r in rows[1:4]:
    r = list(r); r[0] = ev; r[19] = ev; out.append(r)
r = list(rows[1]); r[1] = ev; out.append(r)
csv.writer(open(sys.argv[2], \"w\", newline=\"\", encoding=\"utf-8\", errors=\"surrogateescape\")).writerows(out)
" tests/fixtures/validation/training-public.csv $T/v.csv && LC_ALL=C grep -q $'"'"'\xff'"'"' $T/v.csv' \
  '$SN validate $T/v.csv >$T/t.txt && $SN validate $T/v.csv --format json >$T/t.json' \
  'oneline $T/t.txt && grep -q "worst rows:.*Injected" $T/t.txt && json $T/t.json && jq -e "[.. | strings | select(test(\"Injected\"))] | length > 0" $T/t.json'
# runs list/show and baseline on a store holding a hostile run, with a
# hostile node health (before: runs show wrote its line breaks raw)
p esc-runs-baseline 0 '' \
  'evil_run $T/run.json && jq -a ".health = [{host: \"n\n- alert: Injected\u001b0\", name: \"cpu.governor\", status: \"FAIL\", subject: \"cpu\n- alert: I\u0001\", evidence: \"gov \n- alert: Injected\u001b[31m\u0085 \ufffe\", remedy: \"r\n- alert: Injected\"}]" $T/run.json >$T/run2.json &&
   for i in 1 2 3; do $SN runs import $T/run2.json --db $T/r.db || exit 1; done && $SN baseline save b --db $T/r.db --force' \
  'for c in "runs list" "runs show 1" "baseline list" "baseline show b" "baseline diff b"; do
     $SN $c --db $T/r.db >$T/t.txt && oneline $T/t.txt && $SN $c --db $T/r.db --format json >$T/t.json && json $T/t.json || { echo "$c" >&2; exit 9; }; done;
   $SN runs show 1 --db $T/r.db --format json >$T/back.json && $SN runs import $T/back.json --db $T/r2.db' \
  'grep -q "where .*Injected" <($SN runs show 1 --db $T/r.db) && grep -q "FAIL cpu.governor cpu.*Injected" <($SN runs show 1 --db $T/r.db)'
# check's text with a hostile node health (before: evidence and next
# step raw)
p esc-check-text-health 1 '' \
  'jq -a ".health = [{host: \"n\n- alert: Injected\u001b0\", name: \"cpu.governor\", status: \"FAIL\", subject: \"cpu\", evidence: \"gov \n- alert: Injected\u001b[31m\", remedy: \"r\n- alert: Injected\"}]" $run1 >$T/r.json' \
  '$SN check --spec $spec --results $T/r.json --no-store --verbose' \
  'oneline $T/out && grep -q "next: r.*Injected" $T/out'
# events: an event the store holds with hostile host, rule, subject,
# message (invalid UTF-8 too) and state
p esc-events 0 '' \
  'mkdb $T/e.db && sqlite3 $T/e.db "INSERT INTO events (host, rule, severity, subject, message, value, started, resolved, state) VALUES (CAST(x'"'"'65223c703e26256e5c0a2d20616c6572743a20496e6a6563746564011b5b33316de280a8ff'"'"' AS TEXT), CAST(x'"'"'72756c65220a2d20616c6572743a1b'"'"' AS TEXT), '"'"'critical'"'"', CAST(x'"'"'676475220a2d20616c6572743a1bff'"'"' AS TEXT), CAST(x'"'"'6d7367223c703e0a2d20616c6572743a20496e6a65637465641b5b326aff'"'"' AS TEXT), 1.5, 1764410000, NULL, '"'"'{\"gpu\":{\"name\":\"a\\u001b\\n- alert: Injected\"}}'"'"')"' \
  'for c in "events list" "events show 1"; do $SN $c --db $T/e.db >$T/t.txt && oneline $T/t.txt && $SN $c --db $T/e.db --format json >$T/t.json && json $T/t.json || { echo "$c" >&2; exit 9; }; done' \
  'grep -q "message .*Injected" <($SN events show 1 --db $T/e.db)'
# doctor with hostile names from the machine: an InfiniBand device
# directory, its firmware, the BIOS and driver versions (before: the
# text wrote the line breaks raw)
p esc-doctor-machine-names 0 '' \
  'tree $T/fx && h=$(printf "mlx\"<&%%s\\\\\n- alert: Injected\x01\x1b[31m\xff") && mv $T/fx/sys/class/infiniband/mlx5_0 "$T/fx/sys/class/infiniband/$h" &&
   printf "fw\"<p>&\n- alert: Injected\x1b[2J\xfe\n" >"$T/fx/sys/class/infiniband/$h/fw_ver" &&
   printf "bios\"<&\x1b]0;t\x07\xff\n" >$T/fx/sys/devices/virtual/dmi/id/bios_version' \
  '$SN doctor --fsroot $T/fx --nvml none >$T/t.txt; $SN doctor --fsroot $T/fx --nvml none --format json >$T/t.json' \
  'oneline $T/t.txt && grep -q "topo.nics .*mlx.*Injected" $T/t.txt && json $T/t.json && jq -e "[.. | strings | select(test(\"Injected\"))] | length > 0" $T/t.json'
# the agent's metrics with a hostile hwmon chip name, sensor label and
# NIC name read from the machine: promtool reads the exposition
p esc-watch-metrics 0 '' \
  'h=$(printf "p\"<&%%s\\\\\n- x{a=\"b\"} 1\x01\x1b[31m\xff"); d=$T/r/sys/class/hwmon/hwmon0; mkdir -p $d "$T/r/sys/devices/i2c-0/$h" "$T/r/sys/class/net/e$h/device" $T/r/sys/class/net/ens0/device &&
   printf "%s\n" "$h" >$d/name && echo 41000 >$d/temp1_input && printf "lbl\"\n\x1b\xff\n" >$d/temp1_label && ln -s "$T/r/sys/devices/i2c-0/$h" $d/device &&
   echo up >"$T/r/sys/class/net/e$h/operstate" && echo up >$T/r/sys/class/net/ens0/operstate' \
  '$SN watch --once --db none --nvml none --fsroot $T/r >$T/m.prom' \
  'utf8 $T/m.prom && noesc $T/m.prom && promtool check metrics <$T/m.prom && [[ $(grep -c "^supernode_net_up{" $T/m.prom) == 2 ]] && grep -q "^supernode_hwmon_temperature_celsius{chip=\"p.*Injected\|^supernode_hwmon_temperature_celsius{chip=\"p.*x{a=" $T/m.prom && ! grep -q "^- x" $T/m.prom'

echo "$skipped skipped"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
