# Open MPI hostfile: one slot per GPU
args: export hostfile examples/mi300x-16-servers.yaml
covers: spec topo export render
exit: 0
stdout: tests/cli/expected/export-hostfile-mi300x.out
