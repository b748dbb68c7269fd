# an unknown --format is a usage error
args: plan --format xml
covers: spec topo plan render
exit: 2
stderr-has: unknown format 'xml'
