# --sp and --no-sp together contradict each other
args: sim train --model llama3-8b --sp --no-sp
covers: spec net workload study render
exit: 2
stderr-has: --sp and --no-sp contradict each other
