# an unknown --format is a usage error
args: plan --format xml
covers: spec topo plan report
exit: 2
stderr-has: unknown format 'xml'
