# runs show --format json carries every raw sample (what runs import reads)
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
args: runs show 1 --db $TMP/r.db --format json
covers: store render
exit: 0
stdout-has: "schema": "supernode.run/1"
stdout-has: "samples": [
stdout-has: "name": "rank0~rank1"
