# serving rows with an slo: predicted at the batch that meets the TPOT
# limit, a figure that cannot be output tokens at its interactivity
# flagged, InferenceMAX's per-GPU headline read as input + output, a mean
# isl rounded, and a bad slo cell refused for its row (synthetic rows)
args: validate tests/fixtures/validation-serving/slo.csv
covers: net workload study render
exit: 0
stdout-has: batch 447 per replica meets the slo
stdout-has: FLAG 4000 seqs/GPU at 50 tok/s/user
stdout-has: InferenceMAX's per-GPU figure counts input + output tokens
stdout-has: mean isl 1000.4 as 1000
stdout-has: slo 'fast please': expected terms such as
