# a stored run judged again lists the watch events that held on its host
# while it ran (the one holding then, not the one that ended before)
setup: $SUPERNODE runs import tests/fixtures/check/run-healthy-1.json --db $TMP/r.db
setup: sqlite3 $TMP/r.db < tests/fixtures/watch/events-during-run.sql
args: check --spec examples/cpu-cluster.yaml --run 1 --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 0
stdout-has: check: PASS, 0 findings from 28 results (design and peers; no baseline)
stdout-has: watch events on its hosts while it ran:
stdout-has:   warning  h0  gpu_thermal_creep  gpu 0000:1b:00.0: 0.0541 K/W against its baseline 0.0443 K/W (event 1, holding)
stdout-lacks: link_degraded
stdout-lacks: leak_detected
stdout-lacks: gpu_xid
