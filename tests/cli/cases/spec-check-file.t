# `spec check FILE` reads the file and names it
args: spec check tests/fixtures/specs/good/seed-64.yaml
covers: spec render
exit: 0
stdout-has: tests/fixtures/specs/good/seed-64.yaml: ok: seed-64
stderr-empty:
