# the pairs of a halved host link fall far outside the noise interval: exit 1
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-host0-half.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --run 2 --force --db $TMP/r.db
args: baseline diff accept --db $TMP/r.db
covers: diagnose store render
exit: 1
stdout-has: run 3 against baseline 'accept' (runs 1,2)
stdout-has: pairs.uni      bytes=1048576              rank0~rank1  11.3 MB/s  5.66 MB/s  -49.9%  -49.9  FAIL
stdout-has: pairs.uni      bytes=1048576              rank1~rank2  11.3 MB/s  11.3 MB/s   +0.4%   +0.4  PASS
stdout-has: 22 PASS, 0 WARN, 6 FAIL
