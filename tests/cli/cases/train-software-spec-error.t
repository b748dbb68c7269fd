# the spec's software: section is read with located errors
setup: printf 'accelerator: b200-hgx\nsupernode:\n  accelerators: 8\nsoftware:\n  profile: deepspeeed\n' > $TMP/s.yaml
args: sim train $TMP/s.yaml --model llama3-8b
covers: spec net workload study render
exit: 2
stderr-has: s.yaml:5:12: unknown software 'deepspeeed' (did you mean 'deepspeed'?)
stdout-empty:
