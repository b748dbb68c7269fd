# a failed link: the nominal column is the healthy fabric's (721.8 on
# 18 links), the pairs through the link are 17/18 of it and marked LOWER
args: sim pairs examples/gb200-nvl72.yaml --fail L000000
covers: spec topo net workload study render
exit: 0
stdout-has: sn0.r00.u01.gpu0  sn0.r00.u01.gpu1  server    681.7  1363.4    7.20     2  scale-up    L000001    721.8  LOWER
stdout-has: sn0.r00.u01.gpu1  sn0.r00.u01.gpu2  server    721.8  1443.6    7.20     2  scale-up    L000018    721.8
