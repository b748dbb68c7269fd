# serving rows as their sources state them (synthetic rows, marked illustrative): a prefix-cache hit in
# the notes skips that share of prefill (the same row without one predicts 2732, with 50% 4432 tokens/s
# per GPU), and an MLPerf Server row with no slo of its own is predicted at the rules' TTFT and TPOT
args: validate tests/fixtures/validation-serving/prefix-server.csv
exit: 0
stdout-has: 5000       2732  -45.4%  assumed kv fp8
stdout-has: 5000       4432  -11.4%  assumed kv fp8 with the quantized weights, runtime TensorRT-LLM, prefix hit 50%: that share of prefill skipped
stdout-has: MLPerf Server limits: TTFT 2 s, TPOT 200 ms (the rules' P99)
