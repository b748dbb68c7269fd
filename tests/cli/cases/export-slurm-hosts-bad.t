# a bad line of a hosts file is located
args: export slurm examples/dgx-h100-superpod-su.yaml --hosts tests/fixtures/hosts/su-bad.txt
covers: spec topo export render
exit: 2
stderr-has: tests/fixtures/hosts/su-bad.txt:32:5: more than one name on the line
