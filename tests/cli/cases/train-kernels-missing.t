# a --kernels file that is not there is bad input (exit 2), as a missing spec is
args: sim train examples/gb200-nvl72.yaml --model llama3-8b --gpus 8 --kernels $TMP/none.csv
covers: spec net workload study render
exit: 2
stderr-has: --kernels:
stderr-has: cannot open
