# per class (arch, generation, software, host) and per source: median and P90 |error|, signed mean and the share of optimistic rows; the leave-one-source-out band count
args: validate tests/fixtures/validation/moe-training-public.csv
exit: 0
stdout-has: dimension   class                 rows  sources  median |err|  P90 |err|  signed mean  optimistic
stdout-has: software    torchtitan               1        1        38.51%     38.51%      +38.51%        100%
stdout-has: leave-one-source-out bands: 12 of 12 predicted rows
