# the JSON of a layout that does not fit: its memory and min_accelerators,
# no step time
args: sim train tests/fixtures/train/a100-64.yaml --model gpt3-175b --gpus 8 --tp 8 --gbs 8 --format json
covers: spec net workload study render
exit: 1
stdout-has: "fits": false,
stdout-has: "min_accelerators": 48,
stdout-lacks: step_time_s
stdout-lacks: "mfu"
