# --json FILE gets the checks as doctor's JSON
args: check --nccl-log tests/fixtures/nccl/socket.log --spec tests/fixtures/nccl/hgx-h100.yaml --json $TMP/n.json
covers: spec topo net workload study health bench diagnose store render
exit: 1
file: $TMP/n.json
file-has: "name": "nccl.log.net",
