# `catalog show` finds a model preset by an alias, whatever its case (issue 17)
args: catalog show DeepSeek-R1
covers: spec render catalog
exit: 0
stdout-has: model deepseek-v3
stdout-has:   attention              mla
stdout-has:   kv_lora_rank           512
stdout-has:   dense_layers           3
stdout-has:   mtp_layers             1
stdout-has:   aliases                deepseek-r1
stderr-empty:
