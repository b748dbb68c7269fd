# uncorrectable AER errors fail, correctable ones warn
args: doctor --nvml none --fsroot tests/fixtures/sysfs/node-aer --format json
covers: spec hw health render
exit: 1
stdout-has: "schema": "supernode.doctor/1"
stdout-has: "evidence": "correctable 0, non-fatal 1, fatal 0: CmpltTO=1",
stdout-has: "evidence": "correctable 12, non-fatal 0, fatal 0: BadTLP=12",
stdout-has: "status": "fail",
stderr-empty:
