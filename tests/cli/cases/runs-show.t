# one run: where, what, and every result's median and spread
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
args: runs show 1 --db $TMP/r.db
exit: 0
stdout-has: run 1: complete, not judged
stdout-has:   spec      cpu-cluster (hash 3f1c0d9e5b7a2461)
stdout-has: p2p.bw        bytes=4194304  rank0~rank1  11.7 MB/s    0.5%  10
stderr-empty:
