# -o writes the plan to a file (atomically) and nothing to stdout
args: plan --format json -o $TMP/plan.json
covers: spec topo plan render
exit: 0
file: $TMP/plan.json
file-has: "schema": "supernode.plan/1"
stderr-empty:
