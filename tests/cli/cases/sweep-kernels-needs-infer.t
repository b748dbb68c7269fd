# sweep --kernels without --infer: the table rates the serving search only; refused, exit 2
args: sweep examples/dgx-h100-superpod-su.yaml --set supernode.accelerators=8 --model qwen3-30b-a3b --kernels tests/fixtures/kernels/h100-fp8-100.csv
covers: spec net workload study render
exit: 2
stderr-has: sweep: --kernels rates the serving search's GEMMs: add --infer
