# the spec's reliability section is checked with located errors
args: sim train tests/fixtures/train/bad-reliability.yaml --model llama3-8b
covers: spec net workload study render
exit: 2
stderr-has: tests/fixtures/train/bad-reliability.yaml:6:17: unknown reliability.fault_domain 'rack' (expected job or supernode)
