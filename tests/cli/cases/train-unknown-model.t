# a misspelt preset gets a suggestion
args: sim train tests/fixtures/train/a100-64.yaml --model llama3-70
covers: spec net workload study render
exit: 2
stderr-has: unknown model 'llama3-70' (did you mean 'llama3-70b'?)
