# `catalog list nics` prints that kind alone
args: catalog list nics
covers: spec render catalog
exit: 0
stdout-has: cx8-800g
stdout-lacks: h100-sxm5-80gb
