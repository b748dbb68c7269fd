# --search and --disaggregate together: give one
args: sim infer --model llama3-70b --search --disaggregate 1:1
exit: 2
stderr-has: give one
