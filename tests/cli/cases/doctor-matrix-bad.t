# a misspelt component in the matrix: located error, exit 2, no report
args: doctor --matrix tests/fixtures/matrix/bad-component.yaml
covers: spec hw health render
exit: 2
stderr-has: tests/fixtures/matrix/bad-component.yaml:5:5: unknown component 'ncll' (did you mean 'nccl'?)
stdout-lacks: doctor:
