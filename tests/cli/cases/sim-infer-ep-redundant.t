# EP 72 does not divide DeepSeek-V3's 256 experts: the redundant copies that make it are named
args: sim infer examples/gb200-nvl72.yaml --model deepseek-v3 --gpus 72 --tp 72 --ep 72 --dp-attention --precision fp8
covers: spec net workload study render
exit: 2
stderr-has: ep 72 does not divide the 256 experts of deepseek-v3 and 0 redundant copies (name 32: --redundant-experts 32
