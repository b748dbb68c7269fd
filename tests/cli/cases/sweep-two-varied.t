# only one key may take several values
args: sweep --set supernode.tiers=1,2 --set supernode.accelerators=64,72
covers: spec net workload study render
exit: 2
stderr-has: sweep varies one key: supernode.tiers and supernode.accelerators both have several values
