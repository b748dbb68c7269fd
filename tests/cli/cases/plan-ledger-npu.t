# Huawei accelerators are npu in labels; L2 chips l2sw in their own racks
args: plan examples/cloudmatrix-384.yaml --ledger $TMP/ledger.csv --format json -o $TMP/plan.json
covers: spec topo plan render
exit: 0
file: $TMP/ledger.csv
file-has: L000000,sn0.r00.u01.npu0.p0~sn0.r00.u01.sw0.p0,sn0,r00,1,npu0,0,sn0,r00,1,sw0,0,scale-up,board,0.20,28
file-has: ~sn0.r06.u01.l2sw0.p0,
file: $TMP/plan.json
file-has: "schema": "supernode.plan/1"
