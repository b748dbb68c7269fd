# version names every library the binary was built with and its backends
args: version
covers: util
exit: 0
stdout-has: supernode 0.
stdout-has: libyaml 0.
stdout-has: SQLite 3.
stdout-has: hwloc API 2.
stdout-has: MPI Open MPI
stdout-has: BLAS OpenBLAS
stdout-has: backend cpu: built
stdout-has: backend cuda:
stderr-empty:
