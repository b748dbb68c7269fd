# commas inside a YAML flow list belong to the value: one fixed key here,
# and the sweep varies the other
args: sweep examples/tpu-v5p-cube.yaml --set supernode.torus=[4,4,4] --set supernodes=1,2 --model llama3-8b --gbs 256
covers: spec net workload study render
exit: 0
stdout-has: with supernode.torus=[4,4,4]
stdout-has:   supernodes  accels  job
stderr-empty:
