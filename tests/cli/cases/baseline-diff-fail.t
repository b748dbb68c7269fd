# the pairs of a halved host link fall far outside the noise interval: exit 1
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --run 2 --db $TMP/r.db
args: baseline diff accept --db $TMP/r.db
exit: 1
stdout-has: run 3 against baseline 'accept' (runs 1,2)
stdout-has: p2p.bw        bytes=4194304  rank0~rank1  23.5 MB/s  11.7 MB/s  -50.1%  -50.1  FAIL
stdout-has: p2p.bw        bytes=4194304  rank1~rank2  23.5 MB/s  23.5 MB/s   -0.0%   -0.0  PASS
stdout-has: 7 PASS, 0 WARN, 3 FAIL
