# a bus id not in PCI form is located
args: export nccl-topo examples/dgx-h100-superpod-su.yaml --machine tests/fixtures/machine/bad-busid.txt
covers: spec topo health export render
exit: 2
stderr-has: bad-busid.txt:2:14: not a PCI bus id
