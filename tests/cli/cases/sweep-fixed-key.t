# a second --set with one value fixes a key at every point: two tiers let
# the domain grow past the 64-port chip's radix (without it, 72 is refused)
args: sweep --set supernode.tiers=2 --set supernode.accelerators=64,72 --model llama3-8b --gbs 256 --format json
covers: spec net workload study render
exit: 0
stdout-has: "fixed": {
stdout-has: "supernode.tiers": "2"
stdout-has: "value": "72",
stdout-lacks: "error":
stderr-empty:
