# a lone process measures its one device, stores the run and judges it
setup: ASAN_OPTIONS=detect_leaks=0 $SUPERNODE check --spec examples/cpu-cluster.yaml --tests memory --iters 3 --db $TMP/r.db
args: runs show 1 --db $TMP/r.db
covers: spec topo net workload study health bench diagnose store render
exit: 0
stdout-has: run 1: complete, PASS
stdout-has: memory.triad
stdout-has:   suite     quick on cpu, 1 ranks
