# the same cabling warning in the JSON plan, with the longest run against
# the cable's reach as value and limit
args: plan tests/fixtures/plan/nvl72-2u-trays.yaml --format json
covers: spec topo plan render
exit: 0
stdout-has: "topic": "cabling",
stdout-has: "message": "2,880 scale-up links outrun the cable the spec names for them: NVLink 5 copper spine (NVL72) reaches 1.00 m
stdout-has: "value": 1.3557
stdout-has: "limit": 1
stderr-empty:
