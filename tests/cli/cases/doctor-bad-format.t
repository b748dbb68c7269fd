# an unknown output format is a usage error
args: doctor --format csv
covers: spec hw health render
exit: 2
stderr-has: unknown format 'csv' (expected one of: text,json)
stderr-has: usage: supernode doctor
