# a set of --set values that still does not validate names all of them
args: plan examples/dgx-h100-superpod-su.yaml --set scaleout.nic=cx8-800g --set scaleout.switch=quantum-x800-q3400
covers: spec plan render
exit: 2
stderr-has: is slower than the NIC ports (100 GB/s) (after --set scaleout.nic=cx8-800g, --set scaleout.switch=quantum-x800-q3400)
