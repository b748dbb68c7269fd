# a misspelt key in the node section: located error, exit 2, no report
args: doctor --spec tests/fixtures/node/bad-unknown-key.yaml
covers: spec hw health render
exit: 2
stderr-has: tests/fixtures/node/bad-unknown-key.yaml:7:3: unknown key 'nic_per_swich' in node (did you mean 'nic_per_switch'?)
stdout-lacks: doctor:
