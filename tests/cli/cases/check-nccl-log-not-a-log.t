# a file without NCCL's lines is bad input, exit 2
setup: printf 'hello\n' > $TMP/x.log
args: check --nccl-log $TMP/x.log
covers: spec topo net workload study health bench diagnose store render
exit: 2
stderr-has: x.log:1: no NCCL INFO lines
