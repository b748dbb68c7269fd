# a slow rank of the cpu backend is a CPU rank at its place, with CPU
# advice (binding, NUMA, memory channels), not a GPU's memory clocks
args: check --spec examples/cpu-cluster.yaml --results tests/fixtures/check/run-rank2-slow-memory.json --no-store
covers: bench diagnose store render
exit: 0
stdout-has: WARN device rank2  sn2.r01.u01.cpu-rank2
stdout-has:      next: check that each rank is bound to the cores and memory of one NUMA node
stdout-lacks: ECC
stdout-lacks: gpu2
