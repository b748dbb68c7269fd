# a spec file that is not there: exit 2
args: spec check $TMP/nope.yaml
covers: spec render
exit: 2
stderr-has: nope.yaml: cannot open
