# a collectives constant out of range in the spec: file:line:col
args: sim coll tests/fixtures/specs/coll-bad-constant.yaml
covers: spec topo net workload study render
exit: 2
stderr-has: coll-bad-constant.yaml:13:23: collectives: 'scaleup_efficiency' is '1.5' (expected a fraction in (0, 1])
