# --ledger writes one CSV row per link: id, label, both ends, class,
# medium, length, bandwidth; fabric links first
args: plan examples/gb200-nvl72.yaml --ledger $TMP/ledger.csv
covers: spec topo plan render
exit: 0
file: $TMP/ledger.csv
file-has: id,label,a_supernode,a_rack,a_unit,a_device,a_port,b_supernode,b_rack,b_unit,b_device,b_port,class,medium,length_m,bandwidth_GBps
file-has: L000000,sn0.r00.u01.gpu0.p0~sn0.r00.u10.sw0.p0,sn0,r00,1,gpu0,0,sn0,r00,10,sw0,0,scale-up,copper,0.60,50
file-has: L001296,sn0.r00.u01.nic0.p0~net.site0.p0,sn0,r00,1,nic0,0,net,,,site0,0,scale-out,
file-has: ,host,board,0.20,63
stdout-has: Plan: gb200-nvl72
