# catalog show's JSON of a switch, whole
args: catalog show nvswitch-gen3 --format json
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-switch-json.out
