# CloudMatrix 384: 336 L1 and 112 L2 UB switches, 16 cabinets, 5,376 L1-L2
# links (hardware-catalog.md 2.6); 6,912 optical modules (SemiAnalysis); the
# unpublished powers are estimates [E], never 0 W
args: plan examples/cloudmatrix-384.yaml
covers: spec topo plan render
exit: 0
stdout-has: 1 supernode x 384 Ascend 910C = 384 accelerators in 48 servers and 16 racks
stdout-has:   scale-up switch       336      0       336  in the servers'
stdout-has:   scale-up L2 switch    112    112         0          16.8 kW
stdout-has:     switch to switch                    5,376    5,376
stdout-has:   racks             16  12 compute, 3 scale-up switch, 1 network
stdout-has:   transceivers     6,912                    optical modules, one a cage (a twin-port cage: two links); 46.1 kW in all
stdout-has:     400G LPO       5,376                    for 10,752 link ends
stdout-has:     MMS4X00-NS400  1,536                    for 1,536 link ends
stdout-lacks: WARN power
stderr-empty:
