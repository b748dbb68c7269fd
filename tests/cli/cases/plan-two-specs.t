# plan takes one spec
args: plan examples/seed-64.yaml examples/seed-64.yaml
covers: spec topo plan render
exit: 2
stderr-has: plan takes one SPEC
