# --set reaches the size sweep too: seed-64 with H100s in place of its
# H200s sweeps H100 designs (8051 tokens/s at 64: the search ranks and reports the pessimistic bound)
args: report examples/seed-64.yaml --set accelerator=h100-sxm5-80gb --model llama3-8b -o $TMP/r.html
exit: 0
file: $TMP/r.html
file-has: 64 per supernode: 8051 tokens/s, 7835 with goodput 97.3%
file-has: 8 per supernode: 8061 tokens/s
stderr-empty:
