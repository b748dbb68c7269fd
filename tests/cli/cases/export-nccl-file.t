# -o writes the file whole
args: export nccl-topo examples/dgx-h100-superpod-su.yaml --node 3 -o $TMP/t.xml
covers: spec topo health export render
exit: 0
file: $TMP/t.xml
file-has: <system version="1">
stderr-empty:
