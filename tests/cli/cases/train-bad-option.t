# an unknown recompute mode
args: sim train --model llama3-8b --recompute some
covers: spec model report
exit: 2
stderr-has: --recompute: unknown value 'some'
