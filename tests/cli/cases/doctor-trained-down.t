# a GPU link trained down to x8 fails, naming the device and its slot; exit 1
args: doctor --nvml none --fsroot tests/fixtures/sysfs/node-trained-down
covers: spec hw health render
exit: 1
stdout-has: FAIL  pcie.link             0000:83:00.0 gpu 10de:2330 slot GPU2: trained down: Gen5 x8 (32.0 GT/s), capable of Gen5 x16 (32.0 GT/s)
stdout-has: FAIL  pcie.link             0000:01:00.0 bridge 1000:c030 above gpu 0000:03:00.0: trained down
stdout-has:       remedy: reseat the card
stderr-empty:
