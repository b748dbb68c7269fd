# --spec adds the spec's own entries (confidence U) and its overrides
args: catalog list accelerators --spec tests/fixtures/specs/good/custom-catalog.yaml
covers: spec render catalog
exit: 0
stdout-has: lab-npu
stdout-has: h100-sxm5-80gb  NVIDIA          989 TFLOP/s  80.0 GB  3.35 TB/s  18 x 25.0 GB/s    650 W     256  U
