# `spec default` prints the built-in spec, the same bytes as the fixture
args: spec default
covers: spec render
exit: 0
stdout: tests/fixtures/specs/good/seed-64.yaml
stderr-empty:
