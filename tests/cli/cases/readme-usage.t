# README's Usage block is the command table: `help --usage` prints it
# from the table --help lists, and the two must be the same (one row per
# command, none twice)
setup: sed -n '/^## Usage$/,/^## /p' README.md | sed -n '/^```$/,/^```$/p' | sed '1d;$d' >$TMP/usage
args: help --usage
covers: util
exit: 0
stdout: $TMP/usage
stderr-empty:
