# help for bench lists the tests and the test-only fault option
args: help bench
covers: util
exit: 0
stdout-has: Tests: compute memory h2d d2h pairs aggregate coll latency
stdout-has: --until-ci PCT
stdout-has: test-only
