# MTP drafts without their acceptance rate: no hidden constant
args: sim infer --model deepseek-v3 --mtp 2
covers: spec net workload study render
exit: 2
stderr-has: --mtp 2: give the drafts' acceptance with --accept R
