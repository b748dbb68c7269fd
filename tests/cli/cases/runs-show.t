# one run: where, what, and every result's median and spread
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
args: runs show 1 --db $TMP/r.db
covers: store render
exit: 0
stdout-has: run 1: complete, not judged
stdout-has:   spec      cpu-cluster (hash 52465cc618390950)
stdout-has: pairs.uni      bytes=1048576              rank0~rank1  5.66 MB/s    0.6%  10
stderr-empty:
