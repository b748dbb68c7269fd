# `spec show --format json` carries the schema and SI numbers
args: spec show --format json
covers: spec render
exit: 0
stdout-has: "schema": "supernode.spec/1"
stdout-has: "link_bw": 25000000000
stdout-has: "headroom": 1.5
