# JSON: schema supernode.pairs/1; every pair of a small design with its
# bottleneck link's ledger id and label
args: sim pairs tests/fixtures/specs/coll-dgx-h100.yaml --ranks 8 --format json
covers: spec topo net workload study render
exit: 0
stdout-has: "schema": "supernode.pairs/1",
stdout-has: "pairs": 56,
stdout-has: "relation": "server",
stdout-has: "uni_GBps": 370.7
stdout-has: "bottleneck_id": "L000000",
stderr-empty:
