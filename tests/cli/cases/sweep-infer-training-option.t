# training's options do not apply to a serving sweep
args: sweep --set supernode.accelerators=8,16 --model deepseek-r1 --infer --gbs 256
covers: spec net workload study render
exit: 2
stderr-has: --gbs, --seq and --dtype are training's
