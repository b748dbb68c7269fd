# catalog show's JSON of an accelerator, whole
args: catalog show h200-sxm-141gb --format json
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-accel-json.out
