# JSON carries the schema and SI numbers
args: catalog show h200-sxm-141gb --format json
covers: spec render catalog
exit: 0
stdout-has: "schema": "supernode.catalog/1"
stdout-has: "kind": "accelerator"
stdout-has: "hbm_bytes": 141000000000
