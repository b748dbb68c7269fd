# an unknown option is a usage error, and an option without its value too
args: doctor --fsroot
covers: spec hw health render
exit: 2
stderr-has: --fsroot needs a value
