# a baseline's subjects with centre and noise
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-2.json --db $TMP/r.db
setup: $SUPERNODE baseline save accept --run 1 --run 2 --force --db $TMP/r.db
args: baseline show accept --db $TMP/r.db
covers: diagnose store render
exit: 0
stdout-has: pairs.uni      bytes=1048576              rank0~rank1  11.3 MB/s  0.78%       20
