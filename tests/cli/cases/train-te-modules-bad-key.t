# a misspelt software key is located and named, te_modules among those expected
setup: { cat examples/gb200-nvl72.yaml; printf 'software:\n  profile: megatron-core\n  te_module: false\n'; } > $TMP/s.yaml
args: sim train $TMP/s.yaml --model deepseek-v3
exit: 2
stderr-has: s.yaml:50:3: unknown key 'software.te_module' (did you mean 'te_modules'?)
stderr-has: router_kernels, te_modules or zero3_prefetch)
