# coupled --set values are checked once after all of them: an 800G NIC
# named before the switch and cable it needs is not refused on its own
args: plan examples/dgx-h100-superpod-su.yaml --set scaleout.nic=cx8-800g --set scaleout.switch=quantum-x800-q3400 --set scaleout.cable=mmf-sr8-800g
covers: spec plan render
exit: 0
stdout-has: NIC ports        248  8 per server at 100 GB/s
stderr-empty:
