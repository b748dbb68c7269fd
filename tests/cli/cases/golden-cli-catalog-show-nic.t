# catalog show of a NIC, whole
args: catalog show cx7-400g
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-nic.out
