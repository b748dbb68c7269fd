# an unknown --format is a usage error
args: plan --format xml
exit: 2
stderr-has: unknown format 'xml'
