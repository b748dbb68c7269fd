# the host CPU class must be x86, grace or auto
args: sim infer --model llama3-8b --host-cpu power9
covers: spec net workload study render
exit: 2
stderr-has: --host-cpu 'power9': expected x86, grace or auto
