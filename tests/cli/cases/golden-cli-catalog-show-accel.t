# catalog show of an accelerator, whole
args: catalog show h200-sxm-141gb
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-show-accel.out
