# a node past the design is bad usage, and no file is left
args: export nccl-topo examples/gb200-nvl72.yaml --node 18 -o $TMP/t.xml
covers: spec topo health export render
exit: 2
stderr-has: node 18 is not in the design (expected 0 to 17)
no-file: $TMP/t.xml
