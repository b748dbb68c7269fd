# a root that does not exist is bad input: exit 2, nothing on stdout
args: doctor --fsroot tests/fixtures/sysfs/no-such-tree
covers: spec hw health render
exit: 2
stderr-has: no-such-tree: cannot use as root
