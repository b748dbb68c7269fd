# auto takes three levels where they are fastest, and the JSON says so
args: sim coll tests/fixtures/specs/coll-pods.yaml -b 64K -e 64K --format json
covers: spec topo net workload study render
exit: 0
stdout-has: "algo_requested": "auto",
stdout-has: "algo": "hier3",
stdout-has: "proto": "LL",
stderr-empty:
