# --dot draws the topology with repeated units collapsed
args: plan --dot $TMP/seed.dot
covers: spec topo plan render
exit: 0
file: $TMP/seed.dot
file-has: graph supernode {
file-has: label="supernode (x4, one drawn)";
file-has: c0 [label="accelerator\nx64", shape=ellipse];
file-has: c0 -- c50 [label="512 per supernode scale-up\ncopper 25.0 GB/s", style=solid];
file-has: [label="site network\nx1", shape=box];
