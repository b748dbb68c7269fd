# a NIC uplink at half rate lowers exactly the 16 pairs that leave or
# enter server 0's GPU 3 through it (to and from the 8 GPUs of server 1);
# both directions of the link are slow, so the bidirectional sum halves
args: sim pairs examples/dgx-h100-superpod-su.yaml --ranks 16 --all --degrade L004467=0.5
covers: spec topo net workload study render
exit: 0
stdout-has:   3    8  sn0.r00.u01.gpu3  sn1.r00.u09.gpu0  network    24.2   48.5    9.30     6  scale-out   L004467     48.5  LOWER
stdout-has: # 16 of 240 pairs lowered by the changed links
stderr-empty:
