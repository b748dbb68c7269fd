# --dtype fp4 where the catalog has an FP4 peak; MFU against it
args: sim train examples/gb200-nvl72.yaml --model llama3-8b --dtype fp4 --tp 1 --gbs 72
covers: spec net workload study render
exit: 0
stdout-has: of the fp4 peak, 10000.0 TFLOP/s
