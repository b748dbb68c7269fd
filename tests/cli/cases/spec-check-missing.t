# a spec file that is not there: exit 2
args: spec check $TMP/nope.yaml
exit: 2
stderr-has: nope.yaml: cannot open
