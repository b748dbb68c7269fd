# golden (issue 17): the public MoE training set, whole report: every row predicted from the layout it gives (dp derived from n_gpus, cp, vpp, ep and precision columns, a local batch), or the reason; the numbers are today's training model's
args: validate tests/fixtures/validation/moe-training-public.csv
covers: net workload study render
exit: 0
stdout: tests/cli/expected/golden-model-validate-moe.out
stderr-empty:
