# a mistyped option of a sim subcommand: the nearest of sim's options; a word nothing is near still points at help
args: sim infer --presicion fp8
covers: spec net workload study render
exit: 2
stderr-has: sim infer: unknown option '--presicion' (did you mean '--precision'?)
