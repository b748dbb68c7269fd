# bench rejects bad options before it runs anything: coll --until-ci 100%
args: bench coll --until-ci 100%
covers: spec net workload study bench render
exit: 2
stderr-has: --until-ci: '100%' is not a percentage above 0 and below 100
stdout-lacks: rank
