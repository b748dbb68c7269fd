# an unknown option near no known one points at help, and its text reaches the terminal escaped
args: validate tests/fixtures/validation/no-layout.csv --zzzzzzzz
covers: net workload study render
exit: 2
stderr-has: validate: unknown option '--zzzzzzzz' (see 'supernode help validate')
