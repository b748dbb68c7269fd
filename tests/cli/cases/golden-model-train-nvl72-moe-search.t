# golden (issue 14, model/ refactor): the search for a large MoE model; every line of stdout but the search's wall time
args: sim train examples/gb200-nvl72.yaml --model deepseek-v3 --search --top 4 --explain 2
exit: 0
stdout-has: DeepSeek-V3 (MoE, MLA) on 72 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: global batch 1152 x 4096 tokens, bf16; MFU against the dense bf16 peak, 2500.0 TFLOP/s
stdout-has: searched 6894 layouts that pass the rules, 42 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  etp  vpp  mbs  recompute  zero  step s  tokens/s    MFU    GiB  limited by
stdout-has: 1   4   1  18   1   2    4    1    4       full  3     17.409    271043  37.3%  171.3  compute
stdout-has: 2   4   1  18   1   8    1    1    4       full  3     17.915    263389  36.3%  171.3  compute
stdout-has: 3   8   1   9   1   1    8    1    8       full  3     18.143    260080  35.8%  171.3  compute
stdout-has: 4   2   1  36   1   4    2    1    2       full  3     18.211    259111  35.7%  171.5  compute
stdout-has: layout #2: tp 4  pp 1  dp 18  cp 1  ep 8  vpp 1  mbs 4  gbs 1152  seq 4096  recompute full  zero 3  sp on  dtype bf16  etp 1
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                   GiB
stdout-has:   weights       17.40
stdout-has:   gradients     34.79
stdout-has:   optimizer    104.38
stdout-has:   activations    3.34
stdout-has:   logits         2.96
stdout-has:   buffers        8.44
stdout-has:   total        171.31
stdout-has:   fits: 171.31 of 173.23 GiB HBM (1.91 GiB free)
stdout-has: step time (16 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     4.1032   22.9%
stdout-has:   backward    7.7747   43.4%
stdout-has:   recompute   3.9740   22.2%
stdout-has:   tp          0.1109    0.6%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          1.1694    6.5%
stdout-has:   pp          0.0000    0.0%
stdout-has:   bubble      0.0000    0.0%
stdout-has:   dp          0.7330    4.1%
stdout-has:   optimizer   0.0496    0.3%
stdout-has:   step       17.9149  100.0%
stdout-has: throughput
stdout-has:   tokens/s               263389 (3658.2 per accelerator)
stdout-has:   model TFLOP/s per GPU  907.2
stdout-has:   MFU                    36.3% of the bf16 peak, 2500.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    48.1% (with recompute: 96-coefficient for full)
stdout-has:   limited by             compute
stdout-has: against #1 (17.409 s), where the 0.506 s go:
stdout-has:   ep         +0.5059 s
stderr-empty:
