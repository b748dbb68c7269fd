# --set reaches the size sweep too: seed-64 with H100s in place of its
# H200s sweeps H100 designs (10008 tokens/s at 64, not the file's 10328)
args: report examples/seed-64.yaml --set accelerator=h100-sxm5-80gb --model llama3-8b -o $TMP/r.html
exit: 0
file: $TMP/r.html
file-has: 64 per supernode: 10008 tokens/s, 9739 with goodput 97.3%
file-has: 8 per supernode: 10023 tokens/s
stderr-empty:
