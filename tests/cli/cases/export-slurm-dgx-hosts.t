# host names from a hosts file, compressed
args: export slurm examples/dgx-h100-superpod-su.yaml --hosts tests/fixtures/hosts/su.txt
covers: spec topo export render
exit: 0
stdout-has: SwitchName=leaf0 Nodes=dgx-h100-[01-31]
