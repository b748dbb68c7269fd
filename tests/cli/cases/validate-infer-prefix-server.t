# serving rows as their sources state them (synthetic rows, marked illustrative): a prefix-cache hit in
# the notes skips that share of prefill (the same row without one predicts 2624, with 50% 4253 tokens/s
# per GPU); an MLPerf Server row with no slo of its own is predicted at the rules' TTFT and TPOT limits,
# at P99, and served: the most Poisson requests/s whose served TTFT and TPOT meet them; a row with a
# TTFT limit likewise, at P90; an MLPerf Offline llama2-70b row without an osl takes its dataset's mean output
args: validate tests/fixtures/validation-serving/prefix-server.csv
covers: net workload study render
exit: 0
stdout-has: 5000       2624  -47.5%  assumed kv fp8
stdout-has: 5000       4253  -14.9%  assumed kv fp8 with the quantized weights, runtime TensorRT-LLM, prefix hit 50%: that share of prefill skipped
stdout-has: MLPerf Server: TTFT 2 s, TPOT 200 ms at P99, kv fp8 with the quantized weights, runtime TensorRT-LLM, served at 10.2 req/s a replica, the most within the slo at P99
stdout-has: 3000       2235  -25.5%  assumed kv fp8 with the quantized weights, runtime TensorRT-LLM, batch 215 per replica meets the slo, served at 11.7 req/s a replica, the most within the slo at P90
stdout-has: osl: MLPerf OpenOrca's mean output, 294.45 tokens
