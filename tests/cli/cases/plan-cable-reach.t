# 2U trays in a 48-unit rack put 2,880 NVLink runs beyond the 1 m of the
# copper the spec names: a cabling warning with the count, the cable, the
# longest run and its label
args: plan tests/fixtures/plan/nvl72-2u-trays.yaml
covers: spec topo plan render
exit: 0
stdout-has:   WARN cabling: 2,880 scale-up links outrun the cable the spec names for them: NVLink 5 copper spine (NVL72) reaches 1.00 m, the longest link is 1.36 m (sn0.r00.u01.gpu0.p16~sn0.r00.u27.sw16.p0)
stderr-empty:
