# a device given twice in the machine file is located
args: export nccl-topo examples/dgx-h100-superpod-su.yaml --machine tests/fixtures/machine/twice.txt
covers: spec topo health export render
exit: 2
stderr-has: tests/fixtures/machine/twice.txt:2:1: gpu 0 is given twice
stdout-lacks: <system
