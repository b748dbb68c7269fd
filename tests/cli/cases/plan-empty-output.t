# an empty value after '=' is refused, not taken as no option
args: plan --ledger=
covers: spec topo plan report
exit: 2
stderr-has: '--ledger=' has an empty value
