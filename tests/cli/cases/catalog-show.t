# `catalog show NAME` gives every field and the source
args: catalog show llama3-405b
covers: spec render catalog
exit: 0
stdout-has: model llama3-405b
stdout-has:   kv_heads               8
stdout-has:   vocab                  128256
stdout-has: The Llama 3 Herd of Models
