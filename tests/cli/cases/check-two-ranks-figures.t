# two CPU ranks: too few for peers, and the header says so; each kind of
# measurement shows its median, its range and what judged it (nothing
# here: the spec gives no fp32 rate and two ranks have no peer median)
args: check --spec examples/one-host.yaml --results tests/fixtures/check/run-one-host-2.json --no-store --json $TMP/c.json
covers: bench diagnose store render
exit: 0
stdout-has: check: PASS, 0 findings from 18 results (no design value; not judged against peers: 2 ranks, 4 needed; no baseline)
stdout-has:   compute.gemm dtype=fp32,k=512,m=512,n=512: median 4.67 GFLOP/s, 3.65 GFLOP/s to 5.70 GFLOP/s over 2 ranks; not judged
stdout-has:   pairs.uni bytes=16777216: median 488 MB/s, 350 MB/s to 627 MB/s over 2 pairs; not judged
file: $TMP/c.json
file-has: "needed": 4
file-has: "judged_against": []
