# two CPU ranks judged against an NVL72: the cpu backend moved host
# memory, not NVLink, so no NVLink link is measured, let alone a PASS
# (not measured is not a failure either: exit 0)
args: check --spec examples/gb200-nvl72.yaml --results tests/fixtures/check/run-one-host-2.json --no-store --json $TMP/c.json
covers: bench diagnose store render
exit: 0
stdout-has: links:   1602 not measured
stdout-lacks: links:   36 PASS
stdout-has: the cpu backend cannot measure the NVLink 5 fabric of this design
file: $TMP/c.json
file-has: "UNTESTED": 1602
