# catalog list accelerators with a spec's catalog, whole
args: catalog list accelerators --spec tests/fixtures/specs/good/custom-catalog.yaml
covers: spec render catalog
exit: 0
stdout: tests/cli/expected/golden-cli-catalog-list-custom.out
