# golden (issue 14, model/ refactor): the search for a large MoE model; every line of stdout but the search's wall time
args: sim train examples/gb200-nvl72.yaml --model deepseek-v3 --search --top 4 --explain 2
exit: 0
stdout-has: DeepSeek-V3 (MoE, MLA) on 72 x gb200-nvl72 (gb200-nvl72, 72 per scale-up domain)
stdout-has: software: megatron-core, assumed: none given (--software or the spec's software: section) (host CPU grace)
stdout-has:   on the plain eager stack: 73531 tokens/s (-9.5% against the first layout below)
stdout-has: global batch 1152 x 4096 tokens, bf16; MFU against the dense bf16 peak, 2500.0 TFLOP/s
stdout-has: searched 12726 layouts that pass the rules, 16 fit in memory, in
stdout-has: #  tp  pp  dp  cp  ep  etp  vpp  mbs  recompute  zero  step s  tokens/s    MFU    GiB  limited by
stdout-has: 1   4   1  18   1   8    1    1    2       full  3     58.058     81274  13.2%  170.2  communication 54%       780-1,200  T1 T2 T3 T4 C1
stdout-has: 2   8   1   9   1   8    1    1    4       full  3     58.124     81182  13.2%  170.2  communication 49%       770-1,200  T1 T2 T3 T4 C1
stdout-has: 3   2   1  36   1   8    1    1    1       full  3     59.431     79396  12.9%  170.4  communication 57%       760-1,200  T1 T2 T3 T4 C1
stdout-has: 4   2   1  36   1   4    2    1    1       full  3     62.969     74935  12.1%  170.4  communication 53%       720-1,100  T1 T2 T3 T4
stdout-has: layout #2: tp 8  pp 1  dp 9  cp 1  ep 8  vpp 1  mbs 4  gbs 1152  seq 4096  recompute full  zero 3  sp on  dtype bf16  etp 1
stdout-has: memory per accelerator (pipeline stage 0)
stdout-has:                   GiB
stdout-has:   weights       17.68
stdout-has:   gradients     35.36
stdout-has:   optimizer    106.08
stdout-has:   activations    1.70
stdout-has:   logits         1.48
stdout-has:   buffers        7.87
stdout-has:   total        170.16
stdout-has:   fits: 170.16 of 173.23 GiB HBM (3.07 GiB free)
stdout-has: step time (32 micro-batches per pipeline)
stdout-has:              seconds   share
stdout-has:   forward     7.5134   12.9%
stdout-has:   backward   14.6896   25.3%
stdout-has:   recompute   7.1770   12.3%
stdout-has:   tp          0.2718    0.5%
stdout-has:   cp          0.0000    0.0%
stdout-has:   ep          1.2131    2.1%
stdout-has:   pp          0.0000    0.0%
stdout-has:   bubble      0.0000    0.0%
stdout-has:   dp         27.1397   46.7%
stdout-has:   optimizer   0.0504    0.1%
stdout-has:   step       58.1239  100.0%
stdout-has: throughput
stdout-has:   tokens/s               81182 (1127.5 per accelerator)
stdout-has:   model TFLOP/s per GPU  329.1
stdout-has:   MFU                    13.2% of the bf16 peak, 2500.0 TFLOP/s (model FLOPs: 72-coefficient formula per GEMM, no recompute)
stdout-has:   HFU                    17.5% (with recompute: 96-coefficient for full)
stdout-has:   limited by             communication 49%
stdout-has:   GEMM rates             extrapolated (a shape or type outside the measured kernel tables)
stdout-has: against #1 (58.058 s), where the 0.066 s go:
stdout-has:   forward    +0.6378 s
stdout-has:   backward   +1.2194 s
stdout-has:   recompute  +0.6460 s
stdout-has:   tp         +0.1512 s
stdout-has:   dp         -2.5886 s
stderr-empty:
