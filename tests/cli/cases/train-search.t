# the layout search lists the fastest layouts that fit, each with what
# limits it; --explain 2 breaks the second one down against the first
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gbs 64 --search --top 5 --explain 2
covers: spec net workload study render
exit: 0
stdout-has: layouts that pass the rules
stdout-has: #  tp  pp  dp
stdout-has: limited by
stdout-has: layout #2:
stdout-has: against #1
stderr-empty:
