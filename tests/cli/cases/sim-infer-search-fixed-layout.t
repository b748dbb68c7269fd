# --search chooses the layout: a --tp beside it would be ignored, so it is refused
args: sim infer examples/gb200-nvl72.yaml --model llama3-70b --gpus 8 --search --tp 8
covers: spec net workload study render
exit: 2
stderr-has: --search chooses the layout and batch
