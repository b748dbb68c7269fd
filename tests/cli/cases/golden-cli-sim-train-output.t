# sim train --output writes the report, stdout stays empty, whole
args: sim train tests/fixtures/train/a100-64.yaml --model llama3-8b --gbs 256 --output $TMP/o.txt
covers: spec net workload study render
exit: 1
stdout: tests/cli/expected/golden-cli-sim-train-output.out
stderr-empty:
file: $TMP/o.txt
file-has: layout: tp 1  pp 1  dp 64  cp 1  ep 1  vpp 1  mbs 1  gbs 256  seq 8192  recompute none  zero 1  sp off  dtype bf16
file-has: no step time, throughput or goodput: the layout does not fit
