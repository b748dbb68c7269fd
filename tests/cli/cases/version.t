# --version prints the version and exits 0
args: --version
covers: util
exit: 0
stdout-has: supernode 0.
stderr-empty:
