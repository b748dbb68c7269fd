# a misspelt collectives key: file:line:col and the nearest key
args: sim pairs tests/fixtures/specs/coll-bad-key.yaml
covers: spec topo net workload study render
exit: 2
stderr-has: coll-bad-key.yaml:13:3: collectives: unknown key 'scaleup_efficency' in collectives (did you mean 'scaleup_efficiency'?)
