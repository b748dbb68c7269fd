# a batch above the largest that fits is a finding: exit 1, with the report
args: sim infer --model llama3-70b --gpus 8 --tp 8 --batch 100000
covers: spec net workload study render
exit: 1
stdout-has: DOES NOT FIT: the batch is above the largest
