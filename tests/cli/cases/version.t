# --version prints the version and exits 0
args: --version
exit: 0
stdout-has: supernode 0.
stderr-empty:
