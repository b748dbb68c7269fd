# sim infer's JSON carries its schema and the decode step's parts
args: sim infer --model llama3-8b --gpus 1 --format json
covers: spec net workload study render
exit: 0
stdout-has: "schema": "supernode.infer/2"
stdout-has: "decode_step"
stderr-empty:
