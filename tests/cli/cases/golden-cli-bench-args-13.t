# bench rejects bad options before it runs anything: coll --inject nope
args: bench coll --inject nope
covers: spec model bench report
exit: 2
stderr-has: --inject: unknown fault 'nope' (expected hang:rank=R, die:rank=R or corrupt:rank=R)
stdout-lacks: rank
