# a ledger that cannot be written: exit 3, and the plan is not printed
args: plan --ledger /nonexistent-dir/ledger.csv
covers: spec topo plan render
exit: 3
stderr-has: /nonexistent-dir/
stdout-lacks: Plan:
