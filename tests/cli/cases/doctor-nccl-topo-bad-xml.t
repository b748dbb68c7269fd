# a dump that is not well-formed XML: exit 2 with file:line:col
setup: printf '<system version="1">\n<cpu numaid="0">\n<pci busid="x">\n' > $TMP/bad.xml
args: doctor --nccl-topo $TMP/bad.xml
covers: spec hw health render
exit: 2
stderr-has: bad.xml:4:
