# an empty value after '=' is refused, not taken as no option
args: plan --ledger=
covers: spec topo plan render
exit: 2
stderr-has: '--ledger=' has an empty value
