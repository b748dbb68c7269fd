# examples/seed-64.yaml is the built-in default: the same plan
args: plan examples/seed-64.yaml --format json
covers: spec topo plan render
exit: 0
stdout-has:     "file": "examples/seed-64.yaml",
stdout-has:       "total": 2560,
stdout-has:       "total": 640
stderr-empty:
