# opposite listings: refused, not the last one winning
args: sim pairs --all --classes
exit: 2
stderr-has: --all and --classes ask for opposite listings
