# --search with a given P:D split: the search chooses the split, so give one or the other
args: sim infer --model llama3-70b --search --disaggregate 1:1
covers: spec net workload study render
exit: 2
stderr-has: --search --disaggregate searches the prefill:decode split
